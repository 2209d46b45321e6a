/* disagg_wait.h: a disaggregated run's client TTFT composed from its two
 * workers (docs/llm.md, "The decode-slot wait of disaggregated runs (h140)").
 *
 * The InferenceMAX / InferenceX disaggregated runs (srt-slurm recipes,
 * Dynamo frontend with no --router-mode, so Dynamo's default round-robin)
 * are closed loops: C clients, each sending its next request when the last
 * one ends.  A request's first token reaches the client from the decode
 * worker once that worker admits it into one of its b slots (TensorRT-LLM
 * returns the first token through the generation instance), so the client's
 * TTFT holds the prefill worker's TTFT (prefill + KV handoff) and, when the
 * C clients outnumber the S = W x b decode slots, the wait for a slot.
 *
 * Round-robin keeps every decode worker equally loaded, so while the decode
 * side is the bottleneck all S slots stay busy, each for one request's
 * decode time D: the side completes S / D requests per unit time, a client's
 * cycle is C D / S (Little's law), and its TTFT is that cycle less the D
 * after its first token: (C / S - 1) x D.  Where that is below the prefill
 * worker's TTFT the decode side is not the bottleneck and the prefill's TTFT
 * stands; at C <= S round-robin never queues (tests/test_disagg_wait.c
 * checks both against an event simulation; random routing would queue even
 * there, which is why the router matters). */
#ifndef DLP_BENCH_DISAGG_WAIT_H
#define DLP_BENCH_DISAGG_WAIT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* The closed loop's mean wait for a decode slot, ms: C clients over S slots,
 * each request holding its slot for slot_ms.  0 where C <= S or the inputs
 * are not usable. */
static inline double disagg_slot_wait_ms(int64_t clients, int64_t slots, double slot_ms) {
    if (slots <= 0 || clients <= slots || !(slot_ms > 0) || !isfinite(slot_ms)) return 0;
    return ((double)clients / (double)slots - 1.0) * slot_ms;
}

/* The client's TTFT, ms: the prefill worker's TTFT (its handoff included) or,
 * where the decode slots bind, the slot wait, whichever is longer (the
 * prompt is prefilled while the request waits). */
static inline double disagg_client_ttft_ms(double prefill_ttft_ms, int64_t clients, int64_t slots, double slot_ms) {
    return fmax(prefill_ttft_ms, disagg_slot_wait_ms(clients, slots, slot_ms));
}


/* ---- round-robin with the benchmark's output lengths (h164) ----------------
 * sa-bench (srt-slurm src/srtctl/benchmarks/scripts/sa-bench/
 * benchmark_serving.py, sample_random_requests) draws each request's output
 * length uniformly from [range_ratio x osl, osl], range_ratio 0.8 by default
 * (bench.sh RANDOM_RANGE_RATIO; InferenceX's benchmark-multinode-tmpl.yml
 * sets 0.8), and sends num_prompts = 10 x the concurrency (bench.sh
 * NUM_PROMPTS_MULT 10).  With unequal decode times the clients' completions
 * no longer come back in the order the round-robin counter hands out
 * workers: a client whose request ended early is sent to the worker next in
 * turn, which may still hold its b requests, and waits there though another
 * worker has a free slot.  So round-robin queues below C = S as well, which
 * the closed form above (equal lengths) cannot show; the event simulation
 * below plays the run itself. */

/* a min-heap of clients keyed by their next event's time (ties by client) */
static inline int dw_less(const double *t, const int32_t *h, int64_t i, int64_t j) {
    return t[h[i]] < t[h[j]] || (t[h[i]] == t[h[j]] && h[i] < h[j]);
}
static inline void dw_push(int32_t *h, int64_t *n, const double *t, int32_t c) {
    int64_t i = (*n)++;
    h[i] = c;
    while (i > 0 && dw_less(t, h, i, (i - 1) / 2)) {
        int32_t x = h[i];
        h[i] = h[(i - 1) / 2], h[(i - 1) / 2] = x, i = (i - 1) / 2;
    }
}
static inline int32_t dw_pop(int32_t *h, int64_t *n, const double *t) {
    int32_t top = h[0];
    h[0] = h[--(*n)];
    for (int64_t i = 0;;) {
        int64_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < *n && dw_less(t, h, l, m)) m = l;
        if (r < *n && dw_less(t, h, r, m)) m = r;
        if (m == i) break;
        int32_t x = h[i];
        h[i] = h[m], h[m] = x, i = m;
    }
    return top;
}

/* The run's mean TTFT, ms, simulated: C clients, each sending its next
 * request when its last one ends (the first C at once), n requests in all;
 * the j-th sent request reaches the decode side prefill_ms later, goes to
 * worker (j mod W) (round-robin), waits in that worker's FIFO for one of its
 * b slots and holds it for len_ms[j]; its first token is its admission.
 * NaN where the inputs are not usable or memory is short. */
static inline double disagg_rr_sim_ms(int64_t C, int W, int64_t b, double prefill_ms, const double *len_ms, int64_t n) {
    if (C < 1 || W < 1 || b < 1 || n < 1 || C > INT32_MAX || !(prefill_ms >= 0)) return NAN;
    if (C <= b) return prefill_ms; /* no worker can be handed more than b */
    double *t = malloc((size_t)C * sizeof *t), *sent = malloc((size_t)C * sizeof *sent);
    int32_t *heap = malloc((size_t)C * sizeof *heap), *next = malloc((size_t)C * sizeof *next);
    int64_t *req = malloc((size_t)C * sizeof *req);
    int32_t *head = malloc((size_t)W * sizeof *head), *tail = malloc((size_t)W * sizeof *tail);
    int64_t *free_slots = malloc((size_t)W * sizeof *free_slots);
    int32_t *wk = malloc((size_t)C * sizeof *wk);
    char *busy = malloc((size_t)C);
    double sum = 0, out = NAN;
    if (!t || !sent || !heap || !next || !req || !head || !tail || !free_slots || !wk || !busy) goto done;
    int64_t hn = 0, nsent = 0, nadm = 0;
    for (int w = 0; w < W; w++) head[w] = tail[w] = -1, free_slots[w] = b;
    for (int32_t c = 0; c < C && nsent < n; c++)
        sent[c] = 0, t[c] = prefill_ms, busy[c] = 0, req[c] = nsent++, dw_push(heap, &hn, t, c);
    while (hn > 0) {
        int32_t c = dw_pop(heap, &hn, t);
        double now = t[c];
        if (!busy[c]) { /* reaches the decode side */
            int w = (int)(req[c] % W);
            wk[c] = w;
            if (free_slots[w] > 0) {
                free_slots[w]--, busy[c] = 1, sum += now - sent[c], nadm++;
                t[c] = now + len_ms[req[c]], dw_push(heap, &hn, t, c);
            } else { /* the worker's FIFO */
                next[c] = -1;
                if (tail[w] >= 0) next[tail[w]] = c;
                else head[w] = c;
                tail[w] = c;
            }
            continue;
        }
        int w = wk[c];
        int32_t c2 = head[w]; /* the slot passes to the longest waiter */
        if (c2 >= 0) {
            head[w] = next[c2];
            if (head[w] < 0) tail[w] = -1;
            busy[c2] = 1, sum += now - sent[c2], nadm++;
            t[c2] = now + len_ms[req[c2]], dw_push(heap, &hn, t, c2);
        } else {
            free_slots[w]++;
        }
        if (nsent < n) /* the client's next request */
            busy[c] = 0, sent[c] = now, req[c] = nsent++, t[c] = now + prefill_ms, dw_push(heap, &hn, t, c);
    }
    out = nadm ? sum / (double)nadm : NAN;
done:
    free(t), free(sent), free(heap), free(next), free(req), free(head), free(tail), free(free_slots), free(wk), free(busy);
    return out;
}

/* n decode times, ms: slot_ms times a length drawn uniformly from
 * [range_ratio, 1] as sa-bench draws its output lengths, from a fixed
 * generator (an LCG seeded alike on every call: the same answer every
 * run).  malloc'd; NULL when out of memory. */
static inline double *sa_bench_lengths(int64_t n, double slot_ms, double range_ratio) {
    double *len = malloc((size_t)n * sizeof *len);
    if (!len) return NULL;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int64_t j = 0; j < n; j++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(x >> 11) * 0x1.0p-53;
        len[j] = slot_ms * (range_ratio + (1.0 - range_ratio) * u);
    }
    return len;
}

/* The client's TTFT, ms, of a run of `waves` x C requests whose decode times
 * are slot_ms (gen x TPOT at the full osl) times a length drawn uniformly
 * from [range_ratio, 1] (a fixed generator: the same answer every call).
 * NaN where the inputs are not usable. */
static inline double disagg_rr_ttft_ms(int64_t C, int W, int64_t b, double prefill_ms, double slot_ms, double range_ratio,
                                       int waves) {
    if (C < 1 || waves < 1 || !(slot_ms > 0) || !isfinite(slot_ms) || C > INT32_MAX / waves) return NAN;
    int64_t n = C * waves;
    double *len = sa_bench_lengths(n, slot_ms, range_ratio);
    if (!len) return NAN;
    double r = disagg_rr_sim_ms(C, W, b, prefill_ms, len, n);
    free(len);
    return r;
}

/* An SGLang attention-DP prefill worker's queue (docs/llm.md, h174): its DP
 * controller hands each request to one rank at random (in PD prefill mode
 * round_robin is bootstrap_room % dp_size, the room drawn at random by the
 * router), and a rank runs its own prompts, one_ms each (the prompt alone
 * on its rank, the worker's prefill_ms), so the worker is dp queues of
 * their own, not one queue of dp servers.  Each rank an M/D/1 queue
 * (every prompt the same length): wait = rho one / (2 (1 - rho)), rho =
 * lambda one / dp; the closed loop's rate lambda = clients / (TTFT + away),
 * away the time a client spends on the decode side.  Solved for TTFT =
 * base + wait by bisection (the right side falls as TTFT grows, so one
 * root in [base, base + clients x one]).  NaN where the inputs are not
 * usable. */
static inline double adp_rank_queue_ms(double base_ms, double clients, int dp, double one_ms, double away_ms) {
    if (!(base_ms >= 0) || !(clients >= 1) || dp < 1 || !(one_ms > 0) || !(away_ms >= 0) || !isfinite(clients * one_ms))
        return NAN;
    double lo = base_ms, hi = base_ms + clients * one_ms;
    for (int i = 0; i < 200; i++) {
        double T = 0.5 * (lo + hi), rho = clients * one_ms / ((double)dp * (T + away_ms));
        double f = rho >= 1.0 ? INFINITY : base_ms + rho * one_ms / (2.0 * (1.0 - rho));
        if (f > T) lo = T;
        else hi = T;
    }
    return 0.5 * (lo + hi);
}

/* An SGLang prefill worker's queue played with the benchmark's lengths
 * (docs/llm.md, h186): C clients, n requests (sa-bench: 10 x C); each
 * request goes to one of dp queues (attention DP: the rank bootstrap_room %
 * dp, the room random, h174; without attention DP the worker's one
 * scheduler), waits there first-come first-served behind the prompts ahead
 * (each one_ms, deterministic: Lindley's recursion, start = max(arrival,
 * the queue free), exact for a FIFO server), then its client is away for
 * away_ms[j] (its decode) and sends the next.  The clients' first requests
 * are spread over one mean time away (the first wave's burst is in the
 * prefill worker's own TTFT), and the wait is averaged over the requests
 * after the first C.  A closed loop's arrivals are not Poisson: with C
 * clients and nearly equal decode times they come evenly, so an open
 * M/D/1 (adp_rank_queue_ms) over-states the wait near the knee (docs/llm.md,
 * h186).  Returns the mean wait (ms), NaN where the inputs are not usable. */
static inline double sglang_queue_sim_ms(int64_t C, int dp, double one_ms, const double *away_ms, int64_t n) {
    if (C < 1 || dp < 1 || n <= C || !(one_ms > 0) || C > INT32_MAX) return NAN;
    double *t = malloc((size_t)C * sizeof *t), *free_at = calloc((size_t)dp, sizeof *free_at);
    int32_t *heap = malloc((size_t)C * sizeof *heap);
    if (!t || !free_at || !heap) {
        free(t), free(free_at), free(heap);
        return NAN;
    }
    double mean_away = 0;
    for (int64_t j = 0; j < n; j++) mean_away += away_ms[j] / (double)n;
    int64_t hn = 0, nsent = 0, nwait = 0;
    for (int32_t c = 0; c < (int32_t)C; c++) t[c] = ((double)c + 0.5) / (double)C * mean_away, dw_push(heap, &hn, t, c);
    uint64_t x = 0xD1B54A32D192ED03ull;
    double sum = 0;
    while (hn > 0 && nsent < n) {
        int32_t c = dw_pop(heap, &hn, t);
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int r = dp > 1 ? (int)((x >> 33) % (uint64_t)dp) : 0;
        double start = fmax(t[c], free_at[r]);
        if (nsent >= C) sum += start - t[c], nwait++;
        free_at[r] = start + one_ms;
        t[c] = free_at[r] + away_ms[nsent++];
        dw_push(heap, &hn, t, c);
    }
    free(t), free(free_at), free(heap);
    return nwait ? sum / (double)nwait : NAN;
}

/* The mean wait of sglang_queue_sim_ms with sa-bench's lengths: n = waves x
 * C requests, each away slot_ms (gen x TPOT) times a length uniform over
 * [range_ratio, 1] (a fixed generator: the same answer every call). */
static inline double sglang_queue_wait_ms(int64_t C, int dp, double one_ms, double slot_ms, double range_ratio,
                                          int waves) {
    if (C < 1 || waves < 1 || !(slot_ms >= 0) || !isfinite(slot_ms) || C > INT32_MAX / waves) return NAN;
    int64_t n = C * waves;
    double *len = sa_bench_lengths(n, slot_ms, range_ratio);
    if (!len) return NAN;
    double r = sglang_queue_sim_ms(C, dp, one_ms, len, n);
    free(len);
    return r;
}

/* ---- SGLang's prefill worker played with its prefill batches (h235) -------
 * What sglang_queue_sim_ms leaves out (docs/llm.md, h235):
 * - the batches: a free scheduler takes every waiting prompt that fits its
 *   PrefillAdder's budgets into one batch (k at most, llm_serve.c
 *   sglang_batch_prompts, h186), and the batch's prompts all get their first
 *   token when its forward ends (the prefill worker's
 *   process_batch_result_disagg_prefill sends each finished prompt's KV
 *   after the batch), not one after another;
 * - the first wave: sa-bench sends the first C requests at once (its
 *   semaphore of C over a list of 10 C prompts; the warm-up before it
 *   drains first), so the clients come back bunched, within the spread of
 *   their output lengths (uniform over [0.8, 1] x osl), wave after wave,
 *   where sglang_queue_sim_ms spreads the first arrivals over one mean time
 *   away and leaves the first wave's burst to the library's own term.
 * A batch of j prompts takes lone_ms + (j - 1) / (k - 1) x (k_ms - lone_ms):
 * the library's one prompt and its k-prompt batch, linear between them.
 * Each request goes to one of dp queues (attention DP: a random rank, h174;
 * without it the worker's one scheduler); a queue runs its next batch when
 * it is free and holds a prompt, taking up to k arrived by then, first come
 * first served; arrivals at one instant all make that batch.  A client's
 * next request follows its batch's end by back_ms (KV handoff, front end)
 * and its decode, away_ms[j].  Returns the mean time from a request's
 * arrival at the worker to its batch's end over all n requests (the first
 * wave's included), ms; NaN where the inputs are not usable. */
typedef struct {
    int dp;         /* queues: attention-DP ranks, 1 without          */
    int k;          /* prompts a queue takes into one batch at most    */
    double lone_ms; /* a batch of one prompt                           */
    double k_ms;    /* a batch of k prompts                            */
    double back_ms; /* a batch's end to its clients' decode            */
} sgl_batch_cfg;

static inline double sgl_batch_step_ms(const sgl_batch_cfg *g, int j) {
    if (j <= 1 || g->k <= 1) return g->lone_ms;
    return g->lone_ms + (g->k_ms - g->lone_ms) * (double)(j - 1) / (double)(g->k - 1);
}

/* the queue whose next batch starts first: its start in *s, -1 if none */
static inline int sgl_batch_next(const sgl_batch_cfg *g, const int32_t *q, const int64_t *qh, const int64_t *qn,
                                 const double *busy, const double *t, int64_t C, double *s) {
    int best = -1;
    *s = INFINITY;
    for (int r = 0; r < g->dp; r++) {
        if (!qn[r]) continue;
        double at = fmax(busy[r], t[q[(int64_t)r * C + qh[r]]]);
        if (at < *s) *s = at, best = r;
    }
    return best;
}

static inline double sgl_batch_sim_ms(int64_t C, const sgl_batch_cfg *g, const double *away_ms, int64_t n) {
    if (C < 1 || g->dp < 1 || g->k < 1 || n < C || !(g->lone_ms > 0) || !(g->k_ms > 0) || !(g->back_ms >= 0) ||
        C > INT32_MAX / g->dp)
        return NAN;
    double *t = malloc((size_t)C * sizeof *t), *busy = calloc((size_t)g->dp, sizeof *busy);
    int32_t *heap = malloc((size_t)C * sizeof *heap), *q = malloc((size_t)C * (size_t)g->dp * sizeof *q);
    int64_t *qh = calloc((size_t)g->dp, sizeof *qh), *qn = calloc((size_t)g->dp, sizeof *qn);
    int64_t *req = malloc((size_t)C * sizeof *req);
    int32_t *b = malloc((size_t)g->k * sizeof *b); /* the batch's clients */
    double sum = 0, r_ = NAN;
    int64_t hn = 0, nsent = 0, ndone = 0;
    uint64_t x = 0xD1B54A32D192ED03ull;
    if (!t || !busy || !heap || !q || !qh || !qn || !req || !b) goto out;
    for (int32_t c = 0; c < (int32_t)C; c++) t[c] = 0, dw_push(heap, &hn, t, c);
    for (;;) {
        double s, ta = hn ? t[heap[0]] : INFINITY;
        int r = sgl_batch_next(g, q, qh, qn, busy, t, C, &s);
        if (r < 0 && !hn) break;
        if (hn && ta <= s) { /* an arrival: ties join the batch that starts then */
            int32_t c = dw_pop(heap, &hn, t);
            if (nsent >= n) continue;
            req[c] = nsent++;
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int to = g->dp > 1 ? (int)((x >> 33) % (uint64_t)g->dp) : 0;
            q[(int64_t)to * C + (qh[to] + qn[to]++) % C] = c;
            continue;
        }
        int j = 0; /* the batch: up to k of the prompts arrived by s */
        while (j < g->k && qn[r] && t[q[(int64_t)r * C + qh[r]]] <= s) {
            int32_t c = q[(int64_t)r * C + qh[r]];
            qh[r] = (qh[r] + 1) % C, qn[r]--;
            b[j++] = c;
        }
        busy[r] = s + sgl_batch_step_ms(g, j);
        for (int i = 0; i < j; i++) {
            int32_t c = b[i];
            sum += busy[r] - t[c], ndone++;
            t[c] = busy[r] + g->back_ms + away_ms[req[c]];
            dw_push(heap, &hn, t, c);
        }
    }
    r_ = ndone ? sum / (double)ndone : NAN;
out:
    free(t), free(busy), free(heap), free(q), free(qh), free(qn), free(req), free(b);
    return r_;
}

/* The same with sa-bench's lengths (n = waves x C requests, each away
 * slot_ms x a length uniform over [range_ratio, 1], sa_bench_lengths). */
static inline double sgl_batch_mean_ms(int64_t C, const sgl_batch_cfg *g, double slot_ms, double range_ratio,
                                       int waves) {
    if (C < 1 || waves < 1 || !(slot_ms >= 0) || !isfinite(slot_ms) || C > INT32_MAX / waves) return NAN;
    int64_t n = C * waves;
    double *len = sa_bench_lengths(n, slot_ms, range_ratio);
    if (!len) return NAN;
    double r = sgl_batch_sim_ms(C, g, len, n);
    free(len);
    return r;
}

/* ---- TensorRT-LLM's context worker played request by request (h200) ------
 * What the context (prefill) worker of a disaggregated TensorRT-LLM run does
 * with its requests (docs/llm.md, h187 read it; h200 plays it):
 * - every srt-slurm recipe's prefill section sets disable_overlap_scheduler
 *   (326 of 326), so the worker runs py_executor.py's _executor_loop: a step
 *   fetches new requests, schedules, runs the forward and returns the
 *   scheduled prompts' first tokens in the same iteration; a worker with no
 *   active request blocks in the fetch until one comes;
 * - under attention DP the fetch (executor_request_queue.py,
 *   _fetch_new_requests_attention_dp) admits at most tp_size x
 *   max_num_active_requests in all, and _balance_requests_across_ranks hands
 *   each admitted request to the rank with the fewest active prompt tokens
 *   (a heap over (tokens, requests, rank): with equal prompts the rank with
 *   the fewest requests, the lowest index on a tie); no recipe sets
 *   attention_dp_config, so no balance wait (AttentionDpConfig.enable_balance
 *   defaults to False);
 * - each rank's scheduler takes whole context requests while they fit its
 *   max_num_tokens (microBatchScheduler.cpp; no chunking where the recipe
 *   leaves enable_chunked_prefill off), at most max_batch_size active: k =
 *   min(max_batch_size, floor(max_num_tokens / ISL)) prompts a rank a step,
 *   first come first served on the rank;
 * - the ranks step together (the MoE's all-to-all joins them every layer), so
 *   a step lasts the busiest rank's: j prompts on it, priced as j on every
 *   rank (step_ms[j - 1]); a step of one prompt on m of the N ranks between
 *   the lone prompt (m = 1) and one on every rank (m = N), linearly in m.
 * The clients are sa-bench's closed loop (h164): C clients, the first C
 * requests sent at once, each next one when the client's last output ends:
 * back_ms (the KV handoff and the front end) plus its decode, away_ms[j] for
 * request j.  Returns the mean time from a request's arrival to the end of
 * its step over all n requests (the first wave's included), ms; NaN where
 * the inputs are not usable or memory is short. */
typedef struct {
    int N, mbs, k;         /* attention-DP ranks (1 without), a rank's max_batch_size, prompts a rank a step */
    double lone_ms;        /* one prompt alone on the worker */
    const double *step_ms; /* step_ms[j - 1]: j prompts on every rank, j = 1..k */
    double back_ms;        /* from a prompt's step end to its client's decode */
} trt_ctx_cfg;

/* the step's ms: the busiest rank holds j prompts, the ranks m in all */
static inline double trt_ctx_step_ms(const trt_ctx_cfg *g, int j, int m) {
    if (j > 1) return g->step_ms[j - 1];
    if (g->N <= 1) return g->lone_ms;
    return g->lone_ms + (g->step_ms[0] - g->lone_ms) * (double)(m - 1) / (double)(g->N - 1);
}

/* the worker's state: clients (arrival heap, each one's arrival time and
 * request), the fetch's FIFO of requests that arrived, each rank's FIFO of
 * admitted requests (a ring of mbs) */
typedef struct {
    double *t;
    int32_t *heap, *wq, *rq;
    int64_t *req;
    int *rlen, *rhead;
    int64_t hn, wh, wn, active;
} trt_ctx_state;

static inline void trt_ctx_free(trt_ctx_state *w) {
    free(w->t), free(w->heap), free(w->wq), free(w->rq), free(w->req), free(w->rlen), free(w->rhead);
}
static inline int trt_ctx_alloc(trt_ctx_state *w, int64_t C, const trt_ctx_cfg *g) {
    *w = (trt_ctx_state){0};
    w->t = malloc((size_t)C * sizeof *w->t), w->heap = malloc((size_t)C * sizeof *w->heap);
    w->wq = malloc((size_t)C * sizeof *w->wq), w->req = malloc((size_t)C * sizeof *w->req);
    w->rq = malloc((size_t)g->N * (size_t)g->mbs * sizeof *w->rq);
    w->rlen = calloc((size_t)g->N, sizeof *w->rlen), w->rhead = calloc((size_t)g->N, sizeof *w->rhead);
    if (w->t && w->heap && w->wq && w->req && w->rq && w->rlen && w->rhead) return 1;
    trt_ctx_free(w);
    return 0;
}

/* the fetch: the requests arrived by `now` join the FIFO, then up to N mbs
 * active in all go, in order, each to the rank holding the fewest */
static inline void trt_ctx_fetch(trt_ctx_state *w, const trt_ctx_cfg *g, int64_t C, double now) {
    while (w->hn > 0 && w->t[w->heap[0]] <= now) w->wq[(w->wh + w->wn++) % C] = dw_pop(w->heap, &w->hn, w->t);
    while (w->wn > 0 && w->active < (int64_t)g->N * g->mbs) {
        int r = 0;
        for (int i = 1; i < g->N; i++)
            if (w->rlen[i] < w->rlen[r]) r = i;
        w->rq[r * g->mbs + (w->rhead[r] + w->rlen[r]++) % g->mbs] = w->wq[w->wh];
        w->wh = (w->wh + 1) % C, w->wn--, w->active++;
    }
}

static inline double trt_ctx_sim_ms(int64_t C, const trt_ctx_cfg *g, const double *away_ms, int64_t n) {
    if (C < 1 || C > INT32_MAX || n < 1 || g->N < 1 || g->mbs < 1 || g->k < 1 || g->k > g->mbs ||
        !(g->lone_ms > 0) || !(g->back_ms >= 0) || !g->step_ms)
        return NAN;
    for (int j = 0; j < g->k; j++)
        if (!(g->step_ms[j] > 0) || !isfinite(g->step_ms[j])) return NAN;
    trt_ctx_state w;
    if (!trt_ctx_alloc(&w, C, g)) return NAN;
    int64_t sent = 0, done = 0;
    for (int32_t c = 0; c < (int32_t)C && sent < n; c++) w.t[c] = 0, w.req[c] = sent++, dw_push(w.heap, &w.hn, w.t, c);
    double now = 0, sum = 0;
    while (done < n) {
        trt_ctx_fetch(&w, g, C, now);
        if (w.active == 0) { /* idle: the fetch blocks until the next request */
            if (w.hn == 0) break;
            now = w.t[w.heap[0]];
            continue;
        }
        int j = 0, m = 0;
        for (int r = 0; r < g->N; r++) {
            int s = w.rlen[r] < g->k ? w.rlen[r] : g->k;
            j = s > j ? s : j, m += s;
        }
        now += trt_ctx_step_ms(g, j, m);
        for (int r = 0; r < g->N; r++)
            for (int s = w.rlen[r] < g->k ? w.rlen[r] : g->k; s > 0; s--) {
                int32_t c = w.rq[r * g->mbs + w.rhead[r]];
                w.rhead[r] = (w.rhead[r] + 1) % g->mbs, w.rlen[r]--, w.active--;
                sum += now - w.t[c], done++;
                if (sent < n) /* the client's next request, after its output */
                    w.t[c] = now + g->back_ms + away_ms[w.req[c]], w.req[c] = sent++, dw_push(w.heap, &w.hn, w.t, c);
            }
    }
    trt_ctx_free(&w);
    return done ? sum / (double)done : NAN;
}

/* trt_ctx_sim_ms with sa-bench's lengths: waves x C requests, each decoding
 * slot_ms (gen x TPOT) times a length uniform over [range_ratio, 1] (a fixed
 * generator: the same answer every call). */
static inline double trt_ctx_mean_ms(int64_t C, const trt_ctx_cfg *g, double slot_ms, double range_ratio, int waves) {
    if (C < 1 || waves < 1 || !(slot_ms >= 0) || !isfinite(slot_ms) || C > INT32_MAX / waves) return NAN;
    int64_t n = C * waves;
    double *len = sa_bench_lengths(n, slot_ms, range_ratio);
    if (!len) return NAN;
    double r = trt_ctx_sim_ms(C, g, len, n);
    free(len);
    return r;
}

/* ---- TensorRT-LLM's loaded context worker as a mean-value queue (h237) ---
 * (docs/llm.md, h237; a what-if, bench_serving --trt-ctx-mv, off by
 * default: the headline is worse with today's nvfp4 context step.)  The
 * library's prefill-worker TTFT is burst / W + (0.5 b + p1)(1 - 1 / W) +
 * handoff (llm_serve.c): half the step in flight (b, the burst's step) and
 * the prompt's own step, a lone prompt (p1).  A loaded context executor
 * (disable_overlap_scheduler in every recipe: a step runs to its end,
 * h187) runs in each step the prompts that arrived during the last one,
 * m = clamp(X T(m), 1, N k) with X = C / (TTFT + away) the closed loop's
 * rate and T(m) the step of m prompts (h200's rule: linear between the lone
 * prompt, m = 1, and j prompts on every rank, m = N j); a request waits out
 * half the step in flight and runs in the next, so the steady part becomes
 * 0.5 max(b, T(m)) + max(p1, T(m)).  g's step_ms[j - 1] is j prompts on
 * every rank, j = 1..k; mbs and back_ms are not read. */
static inline double trt_ctx_mv_step_ms(const trt_ctx_cfg *g, double m) {
    double hi = (double)g->N * (double)g->k, x0 = 1.0, y0 = g->lone_ms;
    m = fmax(1.0, fmin(m, hi));
    for (int j = g->N > 1 ? 1 : 2; j <= g->k; j++) {
        double x1 = (double)g->N * (double)j, y1 = g->step_ms[j - 1];
        if (m <= x1) return y0 + (y1 - y0) * (m - x0) / (x1 - x0);
        x0 = x1, y0 = y1;
    }
    return y0;
}

/* The worker's TTFT (ms) with the steady part above in place of the
 * library's: ttft_ms the library's, clients C a worker, burst_step_ms b,
 * away_ms a client's time on the decode side, waves W.  Solved with the
 * rate by damped iteration (80 rounds: converged to well under a
 * microsecond on the bench's rows).  ttft_ms itself below two clients (the
 * library charges no step in flight there); NaN where the inputs are not
 * usable. */
static inline double trt_ctx_mv_ms(double ttft_ms, double clients, const trt_ctx_cfg *g, double burst_step_ms,
                                   double away_ms, double waves) {
    if (!(ttft_ms > 0) || g->N < 1 || g->k < 1 || !(g->lone_ms > 0) || !(burst_step_ms > 0) || !(away_ms >= 0) ||
        !(waves >= 1) || !(clients >= 1))
        return NAN;
    for (int j = 0; j < g->k; j++)
        if (!(g->step_ms[j] > 0)) return NAN;
    if (clients < 2) return ttft_ms;
    double hi = (double)g->N * (double)g->k, old = 0.5 * burst_step_ms + g->lone_ms, w = 1.0 - 1.0 / waves;
    double t = ttft_ms;
    for (int it = 0; it < 80; it++) {
        double x = clients / (t + away_ms), m = 1.0;
        for (int i = 0; i < 80; i++) m = fmax(1.0, fmin(hi, x * trt_ctx_mv_step_ms(g, m)));
        double tm = trt_ctx_mv_step_ms(g, m);
        double add = (0.5 * fmax(burst_step_ms, tm) + fmax(g->lone_ms, tm) - old) * w;
        t = 0.5 * t + 0.5 * fmax(1.0, ttft_ms + add);
    }
    return t;
}

/* ---- TensorRT-LLM's generation worker: admission to first token (h175) -----
 * What the generation (decode) worker does with a disaggregated request
 * (NVIDIA/TensorRT-LLM tensorrt_llm/_torch/pyexecutor/py_executor.py,
 * _executor_loop / _executor_loop_overlap): each iteration starts with
 * _fetch_new_requests, then _check_disagg_gen_transfer_status, then
 * _schedule.  A request fetched in iteration k is scheduled as a
 * "fitting_disagg_gen_init" request there, and _prepare_disagg_gen_init ->
 * _recv_disagg_gen_cache starts its KV pull (request_and_receive_async)
 * before that iteration's forward step.  Its transfer is polled at the start
 * of the following iterations (check_gen_transfer_status(0): non-blocking);
 * the iteration whose poll finds it done schedules it as a generation request
 * and returns the context worker's first token to the client before its
 * forward step (_handle_first_token_response).  So on a busy worker the first
 * token comes the rest of the iteration in flight at arrival (half a step on
 * average) plus whole steps until the poll sees the transfer end: at least
 * one.  A worker that holds no request blocks in the fetch (timeout None
 * when the active requests summed over its attention-DP ranks are 0) and,
 * when every active request is a transfer in flight, blocks on the transfer
 * (check_gen_transfer_status(1)): there the first token is the transfer
 * alone.  The KV transfer x itself is already in the prefill worker's TTFT
 * (llm_serve.c kv_handoff_s); this returns what the loop adds to it. */

/* Probability that a decode worker holds another request when one arrives:
 * C clients spread over W workers (round-robin's long-run share 1 / W each),
 * the other C - 1 requests each on this worker with probability 1 / W. */
static inline double trtllm_gen_busy_p(int64_t clients, int workers) {
    if (clients <= 1) return 0;
    if (workers <= 1) return 1;
    return 1.0 - pow(1.0 - 1.0 / (double)workers, (double)(clients - 1));
}

/* ms the generation loop adds to the KV transfer before the first token: on
 * a busy worker 0.5 d + d max(1, ceil(x / d)) - x, on an idle one 0; the
 * mean over the busy probability.  d the decode worker's step (ms), x the
 * transfer (ms).  0 where the inputs are not usable. */
static inline double trtllm_gen_first_token_ms(double handoff_ms, double step_ms, int64_t clients, int workers) {
    if (!(step_ms > 0) || !isfinite(step_ms) || !(handoff_ms >= 0) || !isfinite(handoff_ms)) return 0;
    double polls = fmax(1.0, ceil(handoff_ms / step_ms));
    double busy = 0.5 * step_ms + polls * step_ms - handoff_ms;
    return trtllm_gen_busy_p(clients, workers) * busy;
}

#endif
