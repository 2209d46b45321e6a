/* agg_sim.h: an aggregated TensorRT-LLM run played step by step, the harness's
 * clients and the executor's iteration loop (docs/llm.md, "The harness played:
 * TensorRT-LLM's aggregated rows step by step (issue 22, h203)").  Off by
 * default; bench_serving --agg-sim.
 *
 * The clients.  A closed loop of C clients, each sending its next request the
 * moment the last token of its previous one arrives, every request the same
 * prompt of S tokens and output of G tokens (aiconfigurator's eval runs
 * genai-perf with --synthetic-input-tokens-stddev 0 --output-tokens-stddev 0,
 * min_tokens = max_tokens and ignore_eos, --concurrency C, --request-count 10 C
 * after --warmup-request-count 2 C: ai-dynamo/aiconfigurator 961028348,
 * src/aiconfigurator/eval/benchmarks/genai_perf_runner.py).  A request reaches
 * the engine fe_s after it is sent (the front end); the figures are the means
 * over requests warm .. warm + measured - 1 in the order they were sent.
 *
 * The engine (TensorRT-LLM's PyExecutor, tensorrt_llm/_torch/pyexecutor/
 * py_executor.py, as docs/llm.md h196 read it).  Each iteration it admits up to
 * `slots` minus the active requests from its queue (_fetch_new_requests); the
 * scheduler then runs every decoding request (one token, 1 + drafts under MTP,
 * against max_num_tokens) and context requests in admission order, whole
 * (enable_chunked_prefill false), while their prompt fits what is left of
 * max_num_tokens (`budget`, each attention-DP rank its own).  Under the overlap
 * scheduler the loop prepares step k + 1 while step k runs, so a request that
 * arrived during step k - 1 joins at step k + 1 at the earliest (`overlap` 1)
 * and a finished request is dropped only after the next step was launched:
 * its slot is free again `overlap` steps after the step that ended it.  An
 * idle executor waits on its queue and starts at once.  A prompt's first
 * token comes at the end of the step that ran it; its last token
 * ceil((G - 1) / yield) decode steps later (yield: tokens a decode step gives a
 * sequence, 1 + accepted drafts).
 *
 * With `chunked` the prompts in admission order fill what is left of the
 * budget instead, the last one split (enable_chunked_prefill true; the bench
 * uses it where a whole prompt cannot sit beside a full batch of decodes, so
 * that a run which ran must have chunked).
 *
 * The price of a step is the caller's: price(ctx, decodes, their mean live
 * context, prompt tokens) in seconds (the bench passes the library's iteration,
 * dlp__llm_iter_parts).  Nothing here is fitted. */
#ifndef DLP_BENCH_AGG_SIM_H
#define DLP_BENCH_AGG_SIM_H

#include <math.h>
#include <stdlib.h>

typedef double (*agg_price_fn)(void *ctx, int n_dec, double mean_ctx, double prompt_tokens);

typedef struct {
    int clients;    /* C                                                      */
    int slots;      /* requests the executor holds at once (max_batch_size,
                       or fewer where the KV cache admits fewer whole)        */
    int ranks;      /* attention-DP ranks, each with its own budget (1: none) */
    int S, G;       /* prompt and output tokens                               */
    double budget;  /* max_num_tokens of a step (of a rank)                   */
    int chunked;    /* 1: prompts split to fill the budget (chunked prefill);
                       0: whole prompts only (TensorRT-LLM's default)         */
    double draft;   /* draft tokens a decode carries (MTP K; 0 without)       */
    double yield;   /* tokens a decode step gives a sequence (>= 1)           */
    double fe_s;    /* client send -> the engine's queue, seconds             */
    double fe_jitter; /* the front end drawn uniformly in fe_s x [1 - j, 1 + j]
                       (0: the same for every request)                        */
    double fe_ttft_s; /* front-end time in the TTFT only (the first token's
                       way back), which delays no arrival, seconds            */
    int overlap;    /* steps the overlap scheduler adds (1; 0 without)        */
    double ratio;   /* lengths drawn in [ratio L, L] (benchmark_serving's
                       --random-range-ratio); 0: every request S and G        */
    int warm;       /* requests left out at the start (2 C)                   */
    int measured;   /* requests measured after them (10 C)                    */
} agg_sim_cfg;

typedef struct {
    double ttft_s, tpot_s; /* means over the measured requests              */
    long steps;            /* steps run in all                              */
    double busy_s;         /* seconds the engine ran steps                  */
} agg_sim_out;

/* one request in flight per client: where it is and its times */
typedef struct {
    double sent, arr, first, last, rem; /* rem: prompt tokens not yet run */
    int in, out;                        /* this request's prompt and output */
    long seen, fstep, estep; /* step seen in the queue, first-token step, last-token step */
    long idx;                /* order sent                                   */
} agg_req;

/* FIFO rings of client numbers (a client has one request at a time) */
typedef struct {
    int *v;
    long h, t, n;
} agg_ring;

static inline void agg_push(agg_ring *r, int i) { r->v[r->t++ % r->n] = i; }
static inline int agg_peek(const agg_ring *r, long k) { return r->v[(r->h + k) % r->n]; }
static inline long agg_len(const agg_ring *r) { return r->t - r->h; }

#define AGG_UNSEEN (-1000000000L)

typedef struct {
    const agg_sim_cfg *c;
    agg_req *q;            /* by client                                      */
    agg_ring wait, pend, dec, held;
    long *release;         /* by client: step from which its slot is free    */
    long step, sent, done;
    double now, sum_first; /* clock; sum of the decoders' first-token steps   */
    double ttft, tpot, busy;
    long nmeas;
} agg_state;

/* A length drawn uniformly from the integers [floor(ratio L), L], as
 * benchmark_serving.py's sample_uniform does (np.random.randint(int(L r),
 * L + 1)); a low-discrepancy sequence in u stands for the draws so that a
 * run is deterministic. */
static inline int agg_draw(int L, double ratio, double u) {
    if (!(ratio > 0) || ratio >= 1) return L;
    int lo = (int)(L * ratio);
    int k = lo + (int)floor(u * (double)(L - lo + 1));
    return k > L ? L : k < 1 ? 1 : k;
}

static inline void agg_send(agg_state *s, int i, double at) {
    if (s->sent >= (long)s->c->warm + s->c->measured) return;
    agg_req *r = &s->q[i];
    r->sent = at, r->seen = AGG_UNSEEN, r->idx = s->sent++;
    /* the golden ratio's and sqrt(2)'s sequences: outputs and prompts apart
     * (sqrt(3)'s: the front end's jitter) */
    double n = (double)r->idx;
    r->arr = at + s->c->fe_s * (1.0 + s->c->fe_jitter * (2.0 * fmod(n * 0.7320508075688772 + 0.25, 1.0) - 1.0));
    r->out = agg_draw(s->c->G, s->c->ratio, fmod(n * 0.6180339887498949, 1.0));
    r->in = agg_draw(s->c->S, s->c->ratio, fmod(n * 0.4142135623730950 + 0.5, 1.0));
    r->rem = r->in;
    agg_push(&s->wait, i);
}

/* the queue as the loop sees it at a step's start: what arrived is seen;
 * slots of finished requests come free; up to the free slots of the seen
 * ones, `overlap` steps after they were seen, join the active requests */
static inline void agg_admit(agg_state *s) {
    for (long k = 0; k < agg_len(&s->wait); k++) {
        agg_req *r = &s->q[agg_peek(&s->wait, k)];
        if (r->arr > s->now) break;
        if (r->seen == AGG_UNSEEN) r->seen = s->step;
    }
    while (agg_len(&s->held) && s->release[agg_peek(&s->held, 0)] <= s->step) s->held.h++;
    long active = agg_len(&s->pend) + agg_len(&s->dec) + agg_len(&s->held);
    while (active < s->c->slots && agg_len(&s->wait)) {
        int i = agg_peek(&s->wait, 0);
        if (s->q[i].seen == AGG_UNSEEN || s->step - s->q[i].seen < s->c->overlap) break;
        s->wait.h++, active++;
        agg_push(&s->pend, i);
    }
}

/* prompt tokens the step takes: what is left of each rank's budget after its
 * share of the decodes' tokens, in whole prompts (at least one when nothing
 * decodes: a prompt longer than the budget would be refused, and the runs
 * ran), or filled to the token under `chunked` */
static inline double agg_prompt_tokens(const agg_state *s, long ndec) {
    const agg_sim_cfg *c = s->c;
    double left = c->budget - ceil((double)ndec / c->ranks) * (1.0 + c->draft);
    double took = 0;
    if (c->chunked) {
        double room = (left > 0 ? left : 0) * c->ranks;
        for (long k = 0; k < agg_len(&s->pend) && took < room; k++)
            took += fmin(s->q[agg_peek(&s->pend, k)].rem, room - took);
        return took;
    }
    /* whole prompts in admission order while they fit a rank's budget
     * (the ranks filled in turn); the first of a step that decodes nothing
     * always runs */
    long np = agg_len(&s->pend);
    double rank_left = left;
    int rank = 0;
    for (long k = 0; k < np; k++) {
        double in = s->q[agg_peek(&s->pend, k)].rem;
        if (in > rank_left) {
            if (took == 0 && ndec == 0) return in;
            if (++rank >= c->ranks) break;
            rank_left = left;
            if (in > rank_left) break;
        }
        took += in, rank_left -= in;
    }
    return took;
}

/* a request ends: its times counted if measured, its client sends the next */
static inline void agg_finish(agg_state *s, int i, double end) {
    agg_req *r = &s->q[i];
    r->last = end;
    if (r->idx >= s->c->warm && r->idx < (long)s->c->warm + s->c->measured) {
        s->ttft += r->first - r->sent + s->c->fe_ttft_s;
        if (r->out > 1) s->tpot += (r->last - r->first) / (r->out - 1);
        s->nmeas++;
    }
    s->done++;
    s->release[i] = s->step + 1 + s->c->overlap;
    agg_push(&s->held, i);
    agg_send(s, i, end);
}

/* the decoding ring kept in last-token order: a new one moves back past
 * those that end after it (equal lengths: it stays at the tail) */
static inline void agg_decode_insert(agg_state *s, int i) {
    agg_ring *d = &s->dec;
    long k = d->t++;
    while (k > d->h && s->q[d->v[(k - 1) % d->n]].estep > s->q[i].estep) {
        d->v[k % d->n] = d->v[(k - 1) % d->n];
        k--;
    }
    d->v[k % d->n] = i;
}

/* one step: price, prompts get their first token, decodes that reach their
 * last token end */
static inline void agg_step(agg_state *s, agg_price_fn price, void *pctx) {
    const agg_sim_cfg *c = s->c;
    long ndec = agg_len(&s->dec);
    double pt = agg_prompt_tokens(s, ndec);
    /* the decodes' mean live context: the mean prompt, the first token and
     * yield tokens a step since their first tokens' steps */
    double in = c->S * (1.0 + (c->ratio > 0 ? c->ratio : 1.0)) / 2.0;
    double live = ndec ? in + 1.0 + c->yield * ((double)s->step - s->sum_first / (double)ndec) : 0;
    double dt = price(pctx, (int)ndec, live, pt);
    double end = s->now + dt;
    while (pt > 0 && agg_len(&s->pend)) {
        int i = agg_peek(&s->pend, 0);
        agg_req *r = &s->q[i];
        double take = fmin(r->rem, pt);
        r->rem -= take, pt -= take;
        if (r->rem > 0) break; /* a chunk: the prompt goes on next step */
        s->pend.h++;
        r->first = end, r->fstep = s->step;
        r->estep = s->step + (long)ceil((r->out - 1.0) / c->yield);
        if (r->estep == s->step) {
            agg_finish(s, i, end);
            continue;
        }
        agg_decode_insert(s, i);
        s->sum_first += (double)s->step;
    }
    /* the decoding ring is in last-token order; a prompt of this step ends
     * later than the step (an output of one token ended above) */
    while (agg_len(&s->dec) && s->q[agg_peek(&s->dec, 0)].estep <= s->step) {
        int i = agg_peek(&s->dec, 0);
        s->dec.h++;
        s->sum_first -= (double)s->q[i].fstep;
        agg_finish(s, i, end);
    }
    s->busy += dt;
    s->now = end;
    s->step++;
}

/* an idle executor: nothing active; it waits for the next arrival and takes
 * it at once (no overlap wait) */
static inline void agg_idle(agg_state *s) {
    int i = agg_peek(&s->wait, 0);
    if (s->q[i].arr > s->now) s->now = s->q[i].arr;
    for (long k = 0; k < agg_len(&s->wait); k++) {
        agg_req *r = &s->q[agg_peek(&s->wait, k)];
        if (r->arr > s->now) break;
        r->seen = s->step - s->c->overlap;
    }
}

/* The run.  0 and *out filled; -1 where the configuration cannot run or
 * memory runs out. */
static inline int agg_sim_run(const agg_sim_cfg *c, agg_price_fn price, void *pctx, agg_sim_out *out) {
    if (c->clients < 1 || c->slots < 1 || c->ranks < 1 || c->S < 1 || c->G < 1 || !(c->yield >= 1) ||
        c->measured < 1 || c->warm < 0 || c->overlap < 0 || !(c->fe_s >= 0) ||
        !(c->fe_ttft_s >= 0) || !(c->fe_jitter >= 0) || c->fe_jitter > 1)
        return -1;
    long n = c->clients;
    agg_state s = {.c = c};
    s.q = calloc((size_t)n, sizeof *s.q);
    s.release = calloc((size_t)n, sizeof *s.release);
    int *buf = calloc((size_t)(4 * n), sizeof *buf);
    int rc = -1;
    if (s.q && s.release && buf) {
        s.wait = (agg_ring){buf, 0, 0, n}, s.pend = (agg_ring){buf + n, 0, 0, n};
        s.dec = (agg_ring){buf + 2 * n, 0, 0, n}, s.held = (agg_ring){buf + 3 * n, 0, 0, n};
        for (int i = 0; i < n; i++) agg_send(&s, i, 0);
        long total = (long)c->warm + c->measured;
        while (s.done < total) {
            agg_admit(&s);
            if (!agg_len(&s.pend) && !agg_len(&s.dec)) {
                if (!agg_len(&s.wait)) break; /* cannot happen: a request is always out */
                /* nothing active: held slots come free as the idle loop spins */
                if (agg_len(&s.held)) s.held.h = s.held.t;
                agg_idle(&s);
                continue;
            }
            agg_step(&s, price, pctx);
        }
        if (s.nmeas > 0) {
            out->ttft_s = s.ttft / (double)s.nmeas, out->tpot_s = s.tpot / (double)s.nmeas;
            out->steps = s.step, out->busy_s = s.busy;
            rc = 0;
        }
    }
    free(s.q), free(s.release), free(buf);
    return rc;
}

#endif
