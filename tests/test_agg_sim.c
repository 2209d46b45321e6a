/* bench/agg_sim.h (docs/llm.md, h203): the harness's clients and
 * TensorRT-LLM's iteration loop played step by step, against runs worked by
 * hand.  Every case prices a step at 10 ms + 1 ms a decode + 0.1 ms a prompt
 * token (lin_price), so each step's time is read off by hand. */
#include "tap.h"
#include "../bench/agg_sim.h"

static double lin_price(void *ctx, int n_dec, double mean_ctx, double prompt_tokens) {
    (void)ctx, (void)mean_ctx;
    return 0.010 + 0.001 * n_dec + 0.0001 * prompt_tokens;
}

static agg_sim_cfg base(void) {
    return (agg_sim_cfg){.clients = 1, .slots = 1, .ranks = 1, .S = 100, .G = 3, .budget = 1000, .yield = 1,
                         .fe_s = 0, .overlap = 1, .warm = 0, .measured = 2};
}

/* One client, a 50 ms front end.  Request 1 reaches the idle executor at
 * 50 ms and runs at once: its prompt step 10 + 10 = 20 ms (first token at 70
 * ms), two decode steps of 11 ms (last at 92 ms).  The client sends at 92 ms,
 * it arrives at 142 ms, the idle executor takes it at once (70 ms again).
 * TTFT = 50 + 20 = 70 ms, TPOT = 11 ms, 6 steps. */
static void t_one_client_by_hand(void) {
    agg_sim_cfg c = base();
    c.fe_s = 0.050;
    agg_sim_out o;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == 0);
    CHECK_NEAR(o.ttft_s, 0.070, 1e-12);
    CHECK_NEAR(o.tpot_s, 0.011, 1e-12);
    CHECK_I64(o.steps, 6);
    CHECK_NEAR(o.busy_s, 2 * (0.020 + 0.011 + 0.011), 1e-12);
}

/* Two clients at once, a budget of 150 tokens: one whole 100-token prompt a
 * step.  Step 0: A's prompt alone, 20 ms (A's first token at 20 ms).  Step 1:
 * A's decode + B's prompt (149 tokens left), 10 + 1 + 10 = 21 ms (B at 41
 * ms).  Step 2: both decode, 12 ms (A's last at 53 ms).  Step 3: B alone, 11
 * ms (64 ms).  TTFT (20 + 41) / 2 = 30.5 ms; TPOT ((53 - 20) / 2 + (64 - 41)
 * / 2) / 2 = 14 ms.  With a budget of 1,000 both prompts share step 0 (30
 * ms): TTFT 30 ms, TPOT 12 ms. */
static void t_one_prompt_a_step_by_hand(void) {
    agg_sim_cfg c = base();
    c.clients = c.slots = 2, c.budget = 150, c.overlap = 0;
    agg_sim_out o;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == 0);
    CHECK_NEAR(o.ttft_s, 0.0305, 1e-12);
    CHECK_NEAR(o.tpot_s, 0.014, 1e-12);
    CHECK_I64(o.steps, 4);
    c.budget = 1000;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == 0);
    CHECK_NEAR(o.ttft_s, 0.030, 1e-12);
    CHECK_NEAR(o.tpot_s, 0.012, 1e-12);
}

/* One slot for two clients: B waits for A's slot.  A: prompt step 20 ms,
 * decodes to 42 ms.  B is seen at step 0 but held out until the slot is
 * free; A ends at step 2, so under the overlap scheduler (A's slot free 1 +
 * 1 steps after) the executor, idle with only the held slot, takes B at 42
 * ms: prompt 20 ms, first token at 62 ms.  TTFT (20 + 62) / 2 = 41 ms. */
static void t_slot_wait_by_hand(void) {
    agg_sim_cfg c = base();
    c.clients = 2, c.G = 3;
    agg_sim_out o;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == 0);
    CHECK_NEAR(o.ttft_s, 0.041, 1e-12);
    CHECK_NEAR(o.tpot_s, 0.011, 1e-12);
}

/* Chunked: a 60-token budget splits the 100-token prompt 60 + 40 (16 and 14
 * ms: first token at 30 ms), then one decode (11 ms). */
static void t_chunked_by_hand(void) {
    agg_sim_cfg c = base();
    c.budget = 60, c.chunked = 1, c.G = 2, c.measured = 1;
    agg_sim_out o;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == 0);
    CHECK_NEAR(o.ttft_s, 0.030, 1e-12);
    CHECK_NEAR(o.tpot_s, 0.011, 1e-12);
    CHECK_I64(o.steps, 3);
}

/* Only the front end's TTFT share: 50 ms in the TTFT, none before the
 * engine: TTFT 20 + 50 = 70 ms as in t_one_client_by_hand, the steps the
 * same. */
static void t_front_end_in_ttft_only(void) {
    agg_sim_cfg c = base();
    c.fe_ttft_s = 0.050;
    agg_sim_out o;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == 0);
    CHECK_NEAR(o.ttft_s, 0.070, 1e-12);
    CHECK_I64(o.steps, 6);
}

/* A front end drawn per request: with j = 1 the k-th request's is 50 ms x
 * (1 + (2 frac(k (sqrt(3) - 1) + 0.25) - 1)): request 0 draws u = 0.25 (25 ms),
 * request 1 u = frac(0.7320508 + 0.25) = 0.9820508 (98.20508 ms); each then
 * runs alone on the idle executor (20 ms): TTFT (45 + 118.20508) / 2 =
 * 81.60254 ms. */
static void t_front_end_jitter_by_hand(void) {
    agg_sim_cfg c = base();
    c.fe_s = 0.050, c.fe_jitter = 1.0;
    agg_sim_out o;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == 0);
    CHECK_NEAR(o.ttft_s, (0.045 + 0.020 + 0.05 * (1.0 + (2.0 * 0.9820508075688772 - 1.0))) / 2.0, 1e-12);
    CHECK_NEAR(o.ttft_s, 0.0816025403784439, 1e-12);
    c.fe_jitter = 1.5;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == -1);
}

static void t_refused(void) {
    agg_sim_out o;
    agg_sim_cfg c = base();
    c.clients = 0;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == -1);
    c = base(), c.yield = 0.5;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == -1);
    c = base(), c.measured = 0;
    CHECK(agg_sim_run(&c, lin_price, NULL, &o) == -1);
}

int main(void) {
    RUN(t_one_client_by_hand);
    RUN(t_one_prompt_a_step_by_hand);
    RUN(t_slot_wait_by_hand);
    RUN(t_chunked_by_hand);
    RUN(t_front_end_in_ttft_only);
    RUN(t_front_end_jitter_by_hand);
    RUN(t_refused);
    return TAP_DONE();
}
