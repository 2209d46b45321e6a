/* test_disagg_wait.c — the decode-slot wait of a disaggregated run's clients
 * (bench/disagg_wait.h; docs/llm.md, "The decode-slot wait of disaggregated
 * runs (h140)").  The closed-form wait is checked by hand and against an
 * event simulation of the same closed loop: C clients, each sending its next
 * request when the last one ends; the prompt takes P on the prefill side
 * (never the bottleneck here), then the request goes to a decode worker
 * (round-robin, or at random) and waits in that worker's FIFO for one of its
 * b slots, which it holds for D; its first token is the admission. */
#include <stdint.h>

#include "../bench/disagg_wait.h"
#include "tap.h"

#define MAXC 256
#define MAXW 16

/* Mean TTFT (ms) over requests after the first quarter, simulated.  Events:
 * a request reaching the decode side (at its send + P) or a slot freeing. */
static double simulate(int C, int W, int b, double P, double D, int random_router, int nreq) {
    double t_evt[MAXC], sent[MAXC];
    int kind[MAXC], wk[MAXC];        /* per client: 0 arriving at decode, 1 in a slot */
    int queue[MAXW][MAXC], qh[MAXW] = {0}, qt[MAXW] = {0}, freeslots[MAXW];
    for (int w = 0; w < W; w++) freeslots[w] = b;
    for (int c = 0; c < C; c++) t_evt[c] = P, sent[c] = 0, kind[c] = 0;
    unsigned long long lcg = 12345;
    int rr = 0, done = 0, n = 0;
    double sum = 0;
    while (done < nreq) {
        int c = 0;
        for (int k = 1; k < C; k++)   /* the next event; ties by client id */
            if (t_evt[k] < t_evt[c]) c = k;
        double t = t_evt[c];
        if (kind[c] == 0) {
            int w;
            if (random_router) lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL, w = (int)((lcg >> 33) % (unsigned)W);
            else w = rr++ % W;
            wk[c] = w;
            if (freeslots[w] > 0) {
                freeslots[w]--, kind[c] = 1, t_evt[c] = t + D;
                if (done > nreq / 4) sum += t - sent[c], n++;
            } else {
                queue[w][qt[w]++ % MAXC] = c, t_evt[c] = INFINITY;
            }
        } else {
            int w = wk[c];
            done++;
            if (qh[w] != qt[w]) {      /* the slot passes to the longest waiter */
                int c2 = queue[w][qh[w]++ % MAXC];
                kind[c2] = 1, t_evt[c2] = t + D;
                if (done > nreq / 4) sum += t - sent[c2], n++;
            } else {
                freeslots[w]++;
            }
            kind[c] = 0, sent[c] = t, t_evt[c] = t + P;   /* the client's next request */
        }
    }
    return n ? sum / n : NAN;
}

/* By hand: 36 clients on 3 decode workers of 8 (ctx1_gen3_tep8_batch8, its
 * recipe's concurrency 36), D = 10,000 ms: (36 / 24 - 1) x 10,000 = 5,000 ms;
 * 6 on 5 x 1: 0.2 x D = 2,000; at or under the slots nothing. */
static void t_closed_form(void) {
    CHECK_NEAR(disagg_slot_wait_ms(36, 24, 10000), 5000, 1e-9);
    CHECK_NEAR(disagg_slot_wait_ms(6, 5, 10000), 2000, 1e-9);
    CHECK_NEAR(disagg_slot_wait_ms(24, 24, 10000), 0, 0);
    CHECK_NEAR(disagg_slot_wait_ms(3, 24, 10000), 0, 0);
    /* the prefill worker's TTFT stands where it is longer than the wait */
    CHECK_NEAR(disagg_client_ttft_ms(120, 36, 24, 10000), 5000, 1e-9);
    CHECK_NEAR(disagg_client_ttft_ms(120, 25, 24, 1000), 120, 1e-9);   /* wait 41.7 */
    CHECK_NEAR(disagg_client_ttft_ms(120, 10, 24, 1000), 120, 1e-9);
}

/* Nothing usable gives no wait, never NaN or a negative. */
static void t_bad_input(void) {
    CHECK_NEAR(disagg_slot_wait_ms(36, 0, 10000), 0, 0);
    CHECK_NEAR(disagg_slot_wait_ms(36, -4, 10000), 0, 0);
    CHECK_NEAR(disagg_slot_wait_ms(36, 24, NAN), 0, 0);
    CHECK_NEAR(disagg_slot_wait_ms(36, 24, -1), 0, 0);
    CHECK_NEAR(disagg_slot_wait_ms(36, 24, INFINITY), 0, 0);
}

/* Round-robin in the closed loop: the simulation gives the closed form
 * within 1 % (or 1 ms) over and under the slots, divisible or not. */
static void t_round_robin_matches_simulation(void) {
    static const int cs[][3] = {{36, 3, 8}, {6, 5, 1}, {7, 5, 1}, {48, 5, 8}, {13, 4, 3},
                                {27, 3, 9}, {3, 3, 1},  {20, 5, 8}, {100, 7, 6}};
    const double P = 100, D = 10000;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        int C = cs[i][0], W = cs[i][1], b = cs[i][2];
        double sim = simulate(C, W, b, P, D, 0, 20000);
        double want = disagg_client_ttft_ms(P, C, (int64_t)W * b, D);
        CHECK_NEAR(sim, want, fmax(1.0, 0.01 * want));
    }
}

/* A random router queues even at C <= S (3 clients on 3 workers of 1 wait
 * for a busy worker about as often as two pick the same one), so the wait
 * depends on the router: the simulation must tell the two apart. */
static void t_random_router_differs(void) {
    double rr = simulate(3, 3, 1, 100, 10000, 0, 20000);
    double rnd = simulate(3, 3, 1, 100, 10000, 1, 20000);
    CHECK_NEAR(rr, 100, 1.0);
    CHECK(rnd > 2000);
}


/* h164, by hand: 2 clients on 2 decode workers of 1 slot, round-robin, the
 * requests' decode times 1,000, 800, 1,000, 1,000 ms in the order sent.
 * P = 0: requests 0 and 1 take workers 0 and 1 at t 0; request 1 ends at
 * 800 and its client's request 2 goes to worker 0 (2 mod 2), busy until
 * 1,000: it waits 200 though worker 1 is free; request 3 (t 1,000) takes
 * worker 1 at once.  Mean TTFT (0 + 0 + 200 + 0) / 4 = 50.  P = 100: 0 and 1
 * admitted at 100; 1 ends at 900, request 2 sent then reaches worker 0 at
 * 1,000, admitted at 1,100 (TTFT 200); request 3 sent at 1,100 reaches the
 * free worker 1 at 1,200 (100): (100 + 100 + 200 + 100) / 4 = 125. */
static void t_rr_lengths_by_hand(void) {
    const double len[4] = {1000, 800, 1000, 1000};
    CHECK_NEAR(disagg_rr_sim_ms(2, 2, 1, 0, len, 4), 50, 1e-9);
    CHECK_NEAR(disagg_rr_sim_ms(2, 2, 1, 100, len, 4), 125, 1e-9);
    /* with equal lengths the same run never queues */
    const double eq[4] = {1000, 1000, 1000, 1000};
    CHECK_NEAR(disagg_rr_sim_ms(2, 2, 1, 100, eq, 4), 100, 1e-9);
}

/* Equal outputs at or under the slots: round-robin hands every worker its
 * share and the completions come back in turn, so no request waits (the
 * closed form's 0); a run whose clients fit one worker's slots cannot wait.
 * Unequal outputs (range 0.8) at C = S queue, by less than one decode time. */
static void t_rr_generated_lengths(void) {
    static const int cs[][3] = {{6, 3, 2}, {3, 3, 1}, {20, 5, 8}, {24, 3, 8}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        CHECK_NEAR(disagg_rr_ttft_ms(cs[i][0], cs[i][1], cs[i][2], 100, 10000, 1.0, 10), 100, 1e-6);
    CHECK_NEAR(disagg_rr_ttft_ms(8, 4, 8, 100, 10000, 0.8, 10), 100, 0);
    double q = disagg_rr_ttft_ms(3, 3, 1, 100, 10000, 0.8, 10);
    CHECK(q > 100 && q < 100 + 10000);
    CHECK(isnan(disagg_rr_ttft_ms(0, 3, 1, 100, 10000, 0.8, 10)));
    CHECK(isnan(disagg_rr_ttft_ms(3, 3, 1, 100, NAN, 0.8, 10)));
    CHECK(isnan(disagg_rr_ttft_ms(3, 0, 1, 100, 10000, 0.8, 10)));
}

/* SGLang's attention-DP prefill worker, its ranks as M/D/1 queues in the
 * closed loop (adp_rank_queue_ms, h174).  By hand:
 *  - base 100 ms, 8 clients, 8 ranks, 100 ms a prompt, 700 ms away: rho =
 *    8 x 100 / (8 (T + 700)) = 100 / (T + 700), T = 100 + rho 100 / (2 (1 -
 *    rho)) = 100 + 5,000 / (T + 600): T^2 + 500 T - 65,000 = 0, T = (-500 +
 *    sqrt(510,000)) / 2 = 107.0714 ms;
 *  - base 100, 64 clients, 8 ranks, 400 ms a prompt, 1,000 ms away: rho =
 *    3,200 / (T + 1,000), T = 100 + 640,000 / (T - 2,200): T^2 - 2,300 T -
 *    420,000 = 0, T = (2,300 + sqrt(6,970,000)) / 2 = 2,470.038 ms (rho
 *    0.922: just above the throughput bound 64 x 400 / 8 - 1,000 = 2,200). */
static void t_adp_rank_queue_by_hand(void) {
    CHECK_NEAR(adp_rank_queue_ms(100, 8, 8, 100, 700), 107.0714, 1e-3);
    CHECK_NEAR(adp_rank_queue_ms(100, 64, 8, 400, 1000), 2470.038, 1e-3);
    CHECK(isnan(adp_rank_queue_ms(100, 0, 8, 100, 700)));
    CHECK(isnan(adp_rank_queue_ms(100, 8, 0, 100, 700)));
    CHECK(isnan(adp_rank_queue_ms(100, 8, 8, 0, 700)));
    CHECK(isnan(adp_rank_queue_ms(NAN, 8, 8, 100, 700)));
}

/* An SGLang prefill worker's queue played in the closed loop (h186,
 * sglang_queue_sim_ms), by hand:
 *  - 2 clients, one queue, 100 ms a prompt, 50 ms away, 6 requests: the
 *    first arrivals spread over the mean time away (12.5 and 37.5 ms); the
 *    first is served 12.5-112.5 and back at 162.5, the second 112.5-212.5
 *    and back at 262.5; from the third on each waits 50 ms (162.5 -> 212.5,
 *    262.5 -> 312.5, 362.5 -> 412.5, 462.5 -> 512.5): mean 50, the
 *    saturated closed loop's C s - Z - s = 200 - 50 - 100;
 *  - 64 clients, 100 ms a prompt, 1,000 ms away (fixed lengths), 640
 *    requests: the first round ends at 64 x 100 ms past the first arrival,
 *    and every later request waits 64 x 100 - 1,000 - 100 = 5,300 ms (the
 *    worker serves one prompt each 100 ms, each client's cycle is 6,400);
 *  - one client waits for nobody, on one queue or eight. */
static void t_sglang_queue_sim_by_hand(void) {
    const double away2[6] = {50, 50, 50, 50, 50, 50};
    CHECK_NEAR(sglang_queue_sim_ms(2, 1, 100, away2, 6), 50, 1e-9);
    CHECK_NEAR(sglang_queue_wait_ms(64, 1, 100, 1000, 1.0, 10), 5300, 1e-6);
    CHECK_NEAR(sglang_queue_wait_ms(1, 1, 100, 1000, 0.8, 10), 0, 0);
    CHECK_NEAR(sglang_queue_wait_ms(1, 8, 100, 1000, 0.8, 10), 0, 0);
    /* eight ranks of the same load wait less than one queue of 1 / 8 the
     * service would be saturated: 64 clients, 800 ms a prompt a rank, the
     * ranks drawn at random: below the one-queue figure, above 0 */
    double w8 = sglang_queue_wait_ms(64, 8, 800, 1000, 1.0, 10);
    CHECK(w8 > 0 && w8 < 64 * 800 / 8.0);
    CHECK(isnan(sglang_queue_sim_ms(0, 1, 100, away2, 6)));
    CHECK(isnan(sglang_queue_sim_ms(2, 0, 100, away2, 6)));
    CHECK(isnan(sglang_queue_sim_ms(2, 1, 0, away2, 6)));
    CHECK(isnan(sglang_queue_sim_ms(2, 1, 100, away2, 2)));
    CHECK(isnan(sglang_queue_wait_ms(2, 1, 100, NAN, 0.8, 10)));
}

/* h235: SGLang's prefill worker played with its batches (disagg_wait.h
 * sgl_batch_sim_ms), traced by hand.  (a) a batch of j prompts between the
 * lone prompt and k of them, linearly: k 5, 100 / 300 ms, j 3 -> 200.
 * (b) two clients sent at once, k 2, 100 / 160 ms, back 10 ms, away 50 /
 * 200: one batch 0-160 (160 each), then each alone (100 each, the worker
 * idle at 220 and 370): (160 + 160 + 100 + 100) / 4 = 130.  (c) three at
 * once, k 2, 100 / 150 ms, one wave: a batch of two ends at 150, the third
 * starts then alone and ends at 250: (150 + 150 + 250) / 3.  (d) three at
 * once, k 3, 100 / 300 ms (two: 200), away 10 / 20 / 30, no back: 0-300
 * (300 each); at 310 one alone, 310-410 (100); the two that came at 320 and
 * 330 while it ran go together at 410, 410-610 (290, 280): 1,570 / 6.
 * (e) k 1 is the FIFO queue of one_ms a prompt: two clients at once, 100
 * ms, away 50: 100, 200, then 150 and 150: 150. */
static void t_sgl_batch_sim_by_hand(void) {
    sgl_batch_cfg a = {.dp = 1, .k = 5, .lone_ms = 100, .k_ms = 300, .back_ms = 0};
    CHECK_NEAR(sgl_batch_step_ms(&a, 3), 200, 1e-12);
    CHECK_NEAR(sgl_batch_step_ms(&a, 1), 100, 0);
    CHECK_NEAR(sgl_batch_step_ms(&a, 5), 300, 1e-12);
    sgl_batch_cfg b = {.dp = 1, .k = 2, .lone_ms = 100, .k_ms = 160, .back_ms = 10};
    const double awb[4] = {50, 200, 0, 0};
    CHECK_NEAR(sgl_batch_sim_ms(2, &b, awb, 4), 130, 1e-9);
    sgl_batch_cfg c = {.dp = 1, .k = 2, .lone_ms = 100, .k_ms = 150, .back_ms = 0};
    const double awc[3] = {1000, 1000, 1000};
    CHECK_NEAR(sgl_batch_sim_ms(3, &c, awc, 3), 550.0 / 3.0, 1e-9);
    sgl_batch_cfg d = {.dp = 1, .k = 3, .lone_ms = 100, .k_ms = 300, .back_ms = 0};
    const double awd[6] = {10, 20, 30, 0, 0, 0};
    CHECK_NEAR(sgl_batch_sim_ms(3, &d, awd, 6), 1570.0 / 6.0, 1e-9);
    sgl_batch_cfg e = {.dp = 1, .k = 1, .lone_ms = 100, .k_ms = 100, .back_ms = 0};
    const double awe[4] = {50, 50, 50, 50};
    CHECK_NEAR(sgl_batch_sim_ms(2, &e, awe, 4), 150, 1e-9);
    /* one client: every request its lone prompt */
    CHECK_NEAR(sgl_batch_mean_ms(1, &d, 1000, 0.8, 10), 100, 1e-9);
    CHECK(isnan(sgl_batch_sim_ms(0, &b, awb, 4)));
    CHECK(isnan(sgl_batch_sim_ms(2, &b, awb, 1)));
    sgl_batch_cfg bad = b;
    bad.lone_ms = 0;
    CHECK(isnan(sgl_batch_sim_ms(2, &bad, awb, 4)));
    CHECK(isnan(sgl_batch_mean_ms(2, &b, NAN, 0.8, 10)));
}

/* TensorRT-LLM's generation loop between the KV transfer and the first
 * token (h175), by hand: a busy worker adds half a step of its iteration in
 * flight plus whole steps until the poll after the transfer's end (at least
 * one), less the transfer already counted; an idle one adds nothing. */
static void t_trtllm_gen_first_token(void) {
    CHECK_NEAR(trtllm_gen_busy_p(1, 4), 0, 0);             /* the only client        */
    CHECK_NEAR(trtllm_gen_busy_p(2, 1), 1, 0);             /* one worker, 2 clients  */
    CHECK_NEAR(trtllm_gen_busy_p(3, 2), 0.75, 1e-12);      /* 1 - (1/2)^2            */
    CHECK_NEAR(trtllm_gen_busy_p(9, 8), 1 - 0.343608915, 1e-9); /* 1 - (7/8)^8      */
    CHECK_NEAR(trtllm_gen_first_token_ms(1, 10, 2, 1), 14, 1e-9);  /* 5 + 10 - 1     */
    CHECK_NEAR(trtllm_gen_first_token_ms(20, 10, 2, 1), 5, 1e-9);  /* 5 + 2 x 10 - 20 */
    CHECK_NEAR(trtllm_gen_first_token_ms(25, 10, 2, 1), 10, 1e-9); /* 5 + 3 x 10 - 25 */
    CHECK_NEAR(trtllm_gen_first_token_ms(0, 10, 2, 1), 15, 1e-9);  /* 5 + 10          */
    CHECK_NEAR(trtllm_gen_first_token_ms(1, 10, 3, 2), 10.5, 1e-9); /* 0.75 x 14      */
    CHECK_NEAR(trtllm_gen_first_token_ms(1, 10, 1, 1), 0, 0);      /* idle: blocks    */
    CHECK_NEAR(trtllm_gen_first_token_ms(1, 0, 4, 1), 0, 0);
    CHECK_NEAR(trtllm_gen_first_token_ms(1, NAN, 4, 1), 0, 0);
    CHECK_NEAR(trtllm_gen_first_token_ms(NAN, 10, 4, 1), 0, 0);
    CHECK_NEAR(trtllm_gen_first_token_ms(-1, 10, 4, 1), 0, 0);
}

/* h200: TensorRT-LLM's context worker played (disagg_wait.h trt_ctx_sim_ms),
 * traced by hand.  (a) one rank, max_batch_size 1, two clients, 100 ms a
 * prompt, 50 ms away: c0 0-100 (100), c1 waits, 100-200 (200), c0 back at
 * 150 runs 200-300 (150), c1 back at 250 runs 300-400 (150): mean 150; with
 * 20 requests the pattern holds (c_i back 50 after its end, the other's
 * step ends 50 later): (100 + 200 + 18 x 150) / 20 = 150.  (b) two ranks,
 * max_batch_size 2, k 2, three clients at once: ranks 0 / 1 / 0 (the
 * fewest, the lowest on a tie), the busiest holds 2: one step of 250 ms.
 * (c) four ranks, one prompt each on two: 100 + (160 - 100) x 1 / 3 = 120.
 * (d) two ranks, max_batch_size 1, three clients: two admitted (N x 1), a
 * step of one on both (130), then the third alone (100): (130 + 130 + 230)
 * / 3.  (e) one rank, max_batch_size 2, k 2, four clients, 1,000 ms away:
 * steps of 160 ms at 0 and 160 (160, 160, 320, 320), idle to 1,160, then
 * 1,160-1,320 and 1,320-1,480 (160 each): 1,600 / 8 = 200. */
static void t_trt_ctx_sim_by_hand(void) {
    const double s1[1] = {100}, s2[2] = {150, 250}, s4[1] = {160}, s5[1] = {130}, s6[2] = {100, 160};
    const double away50[4] = {50, 50, 50, 50}, away1k[8] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    trt_ctx_cfg a = {.N = 1, .mbs = 1, .k = 1, .lone_ms = 100, .step_ms = s1, .back_ms = 0};
    CHECK_NEAR(trt_ctx_sim_ms(2, &a, away50, 4), 150, 1e-9);
    CHECK_NEAR(trt_ctx_mean_ms(2, &a, 50, 1.0, 10), 150, 1e-9);
    trt_ctx_cfg b = {.N = 2, .mbs = 2, .k = 2, .lone_ms = 100, .step_ms = s2, .back_ms = 10};
    CHECK_NEAR(trt_ctx_sim_ms(3, &b, away1k, 3), 250, 1e-9);
    trt_ctx_cfg c = {.N = 4, .mbs = 1, .k = 1, .lone_ms = 100, .step_ms = s4, .back_ms = 0};
    CHECK_NEAR(trt_ctx_sim_ms(2, &c, away1k, 2), 120, 1e-9);
    trt_ctx_cfg d = {.N = 2, .mbs = 1, .k = 1, .lone_ms = 100, .step_ms = s5, .back_ms = 0};
    CHECK_NEAR(trt_ctx_sim_ms(3, &d, away1k, 3), 490.0 / 3.0, 1e-9);
    trt_ctx_cfg e = {.N = 1, .mbs = 2, .k = 2, .lone_ms = 100, .step_ms = s6, .back_ms = 0};
    CHECK_NEAR(trt_ctx_sim_ms(4, &e, away1k, 8), 200, 1e-9);
    /* not usable: k above the rank's cap, a step not priced, no clients */
    trt_ctx_cfg bad = e;
    bad.k = 3;
    CHECK(isnan(trt_ctx_sim_ms(4, &bad, away1k, 8)));
    const double snan[2] = {100, NAN};
    bad = e, bad.step_ms = snan;
    CHECK(isnan(trt_ctx_sim_ms(4, &bad, away1k, 8)));
    CHECK(isnan(trt_ctx_sim_ms(0, &e, away1k, 8)));
    CHECK(isnan(trt_ctx_mean_ms(2, &a, NAN, 0.8, 10)));
}

/* h237: the loaded context worker as a mean-value queue, by hand.  N 2
 * ranks, k 2 a rank, lone prompt 150 ms, one on each rank 250, two 400;
 * the burst's step b 100; W 10 (the steady part weighs 0.9); the library's
 * steady part 0.5 x 100 + 150 = 200.
 * - 40 clients, 900 ms away, TTFT 800: at any TTFT near 1 s the rate is
 *   40 / (t + 900) > 4 / 400 a ms, so m = N k = 4 and T = 400: 0.5 x 400 +
 *   400 = 600, TTFT 800 + 0.9 x 400 = 1160.
 * - 2 clients, 10 s away, TTFT 300: m = 1 (2 / 10,300 x 150 = 0.03), T =
 *   the lone 150: 0.5 x 150 + 150 = 225, TTFT 300 + 0.9 x 25 = 322.5.
 * - 10 clients, 900 ms away, TTFT 500: m in [1, 2], T = 50 + 100 m, m = X T
 *   with X = 10 / (t + 900) gives m = 500 / (t - 100); t = 500 + 0.9 (1.5 T
 *   - 200) = 387.5 + 67500 / (t - 100): u = t - 100 solves u^2 - 287.5 u -
 *   67500 = 0, u = (287.5 + sqrt(352656.25)) / 2, t = 540.6744 (m 1.1346).
 * - the step rule: m 3 lies halfway between 250 (m 2) and 400 (m 4): 325;
 *   one client: the TTFT as given; an unpriced step: NaN. */
static void t_trt_ctx_mv_by_hand(void) {
    const double st[2] = {250, 400};
    trt_ctx_cfg g = {.N = 2, .mbs = 2, .k = 2, .lone_ms = 150, .step_ms = st, .back_ms = 0};
    CHECK_NEAR(trt_ctx_mv_step_ms(&g, 3.0), 325.0, 1e-9);
    CHECK_NEAR(trt_ctx_mv_step_ms(&g, 9.0), 400.0, 1e-9);
    CHECK_NEAR(trt_ctx_mv_step_ms(&g, 1.5), 200.0, 1e-9);
    CHECK_NEAR(trt_ctx_mv_ms(800, 40, &g, 100, 900, 10), 1160.0, 1e-6);
    CHECK_NEAR(trt_ctx_mv_ms(300, 2, &g, 100, 10000, 10), 322.5, 1e-6);
    CHECK_NEAR(trt_ctx_mv_ms(500, 10, &g, 100, 900, 10), 100.0 + (287.5 + sqrt(352656.25)) / 2.0, 1e-6);
    CHECK_NEAR(trt_ctx_mv_ms(500, 1, &g, 100, 900, 10), 500.0, 1e-12);
    const double sn[2] = {250, NAN};
    trt_ctx_cfg bad = g;
    bad.step_ms = sn;
    CHECK(isnan(trt_ctx_mv_ms(800, 40, &bad, 100, 900, 10)));
    CHECK(isnan(trt_ctx_mv_ms(800, 40, &g, 0, 900, 10)));
}

int main(void) {
    RUN(t_closed_form);
    RUN(t_bad_input);
    RUN(t_round_robin_matches_simulation);
    RUN(t_random_router_differs);
    RUN(t_rr_lengths_by_hand);
    RUN(t_rr_generated_lengths);
    RUN(t_adp_rank_queue_by_hand);
    RUN(t_sglang_queue_sim_by_hand);
    RUN(t_sgl_batch_sim_by_hand);

    RUN(t_trt_ctx_mv_by_hand);
    RUN(t_trtllm_gen_first_token);
    RUN(t_trt_ctx_sim_by_hand);
    return TAP_DONE();
}
