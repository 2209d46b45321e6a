/*
 * llm_json.c — the one JSON text of an LLM prediction (`dlperf llm --json`,
 * POST /api/llm, dlperf.llm in Python); results.c says why there is one.
 * Numbers %.6g (the trees' precision), counts as integers, non-finite null.
 * A new dlp_llm_prediction field that users should see is added here once.
 */

#include "util/jw.h"

#define G6 "%.6g"

dlp_status dlp_llm_json(const dlp_llm_config *c, const dlp_device *d, const dlp_llm_workload *wl,
                        const dlp_llm_prediction *p, int64_t samples, const char *region, char **out, size_t *len,
                        dlp_error *err) {
    if (samples <= 0) samples = wl->batch;
    /* totals for `samples` sequences */
    double tot_s = (double)samples / p->throughput_sps, tot_j = p->energy_j * (double)samples,
           tot_g = p->co2_g * (double)samples;
    dlp__jw w = {0};
    dlp__jw_obj(&w, NULL);
    dlp__jw_str(&w, "model", c->id);
    dlp__jw_str(&w, "hf_id", c->hf_id);
    dlp__jw_str(&w, "model_type", c->model_type);
    dlp__jw_str(&w, "device", d->id);
    dlp__jw_str(&w, "device_name", d->name);
    dlp__jw_i64(&w, "batch", (long long)wl->batch);
    dlp__jw_i64(&w, "seq", (long long)wl->seq);
    dlp__jw_i64(&w, "gen_tokens", (long long)wl->gen_tokens);
    dlp__jw_i64(&w, "gpus", (long long)(wl->n_gpus > 0 ? wl->n_gpus : 1));
    dlp__jw_str(&w, "dtype", dlp_quant_name(wl->quant));
    dlp__jw_str(&w, "compute_dtype", dlp_dtype_short(p->compute_dtype));
    dlp__jw_str(&w, "kv_dtype", dlp_dtype_short(p->kv_dtype));
    dlp__jw_bool(&w, "weight_only", p->weight_only);
    dlp__jw_num(&w, "throughput_sps", G6, p->throughput_sps);
    dlp__jw_num(&w, "tokens_per_s", G6, p->tokens_per_s);
    dlp__jw_num(&w, "latency_ms", G6, p->latency_ms);
    dlp__jw_num(&w, "memory_mb", G6, p->memory_mb);
    dlp__jw_num(&w, "weights_mb", G6, p->weights_mb);
    dlp__jw_num(&w, "activations_mb", G6, p->activations_mb);
    dlp__jw_bool(&w, "fits", p->fits);
    /* the one memory story (docs/llm.md): fits is total_mb against the
     * device, the same parts in generate mode and serving */
    dlp__jw_obj(&w, "memory_need");
    dlp__jw_num(&w, "weights_mb", G6, p->need.weights_mb);
    dlp__jw_num(&w, "activations_mb", G6, p->need.activations_mb);
    dlp__jw_num(&w, "kv_cache_mb", G6, p->need.kv_mb);
    dlp__jw_num(&w, "runtime_mb", G6, p->need.runtime_mb);
    dlp__jw_num(&w, "total_mb", G6, p->need.total_mb);
    dlp__jw_num(&w, "serving_workspace_mb", G6, p->need.workspace_mb);
    dlp__jw_end(&w, '}');
    dlp__jw_num(&w, "power_w", G6, p->power_w);
    dlp__jw_num(&w, "energy_j", G6, p->energy_j);
    dlp__jw_num(&w, "co2_g", G6, p->co2_g);
    dlp__jw_str(&w, "region", region);
    dlp__jw_num(&w, "carbon_g_per_kwh", G6, p->carbon_g_per_kwh);
    dlp__jw_num(&w, "pue", G6, p->pue);
    dlp__jw_i64(&w, "samples", (long long)samples);
    dlp__jw_num(&w, "total_time_s", G6, tot_s);
    dlp__jw_num(&w, "total_energy_j", G6, tot_j);
    dlp__jw_num(&w, "total_co2_g", G6, tot_g);
    dlp__jw_i64(&w, "params", (long long)p->params);
    dlp__jw_i64(&w, "macs", (long long)p->macs);
    dlp__jw_i64(&w, "nodes", (long long)p->nodes);
    dlp__jw_i64(&w, "edges", (long long)p->edges);
    dlp__jw_i64(&w, "active_params", (long long)p->active_params);
    dlp__jw_i64(&w, "image_tokens", (long long)c->image_tokens);
    if (c->image_tokens > 0) {
        dlp__jw_num(&w, "vision_ms", G6, p->vision_ms);
        dlp__jw_i64(&w, "vision_params", (long long)p->vision_params);
    }
    dlp__jw_num(&w, "kv_bytes_per_seq", "%.0f", p->kv_bytes_per_seq);
    if (p->serving) {
        /* the serving model (docs/llm.md, "Serving") */
        dlp__jw_obj(&w, "serving");
        dlp__jw_i64(&w, "concurrency", (long long)p->concurrency);
        dlp__jw_i64(&w, "max_concurrency", (long long)p->max_concurrency);
        dlp__jw_i64(&w, "prompt", (long long)wl->seq);
        dlp__jw_i64(&w, "gen_tokens", (long long)wl->gen_tokens);
        dlp__jw_i64(&w, "ep", (long long)(wl->ep > 1 ? wl->ep : 1));
        /* redundant experts only where asked for (answers without them
         * keep their bytes) */
        if (wl->expert_slots > 0) dlp__jw_i64(&w, "expert_slots", (long long)wl->expert_slots);
        if (wl->eager) dlp__jw_bool(&w, "eager", 1); /* only where asked for, as expert_slots */
        dlp__jw_i64(&w, "attention_dp", (long long)(wl->attn_dp > 1 ? wl->attn_dp : 1));
        dlp__jw_str(&w, "phase", dlp_llm_phase_name(wl->phase));
        /* speculative decoding only where asked for (answers without it
         * keep their bytes) */
        if (wl->spec_tokens > 0) {
            dlp__jw_i64(&w, "mtp_tokens", (long long)wl->spec_tokens);
            dlp__jw_num(&w, "mtp_accepted", G6, wl->spec_accepted);
        }
        /* TensorRT-LLM's batch waiting, likewise only where asked for */
        if (wl->batch_wait_iters > 0) {
            dlp__jw_i64(&w, "batch_wait_iters", (long long)wl->batch_wait_iters);
            dlp__jw_num(&w, "batch_wait_tokens", G6, wl->batch_wait_tokens);
        }
        /* SGLang's receive interval, likewise */
        if (wl->recv_interval > 1) dlp__jw_i64(&w, "recv_interval", (long long)wl->recv_interval);
        if (wl->adp_balance_iters > 0) dlp__jw_i64(&w, "adp_balance_iters", (long long)wl->adp_balance_iters);
        /* the benchmark's fixed lengths and SGLang's mixed chunks, likewise;
         * "lockstep" where the waves then never part (TTFT the burst's) */
        if (wl->fixed_lengths) dlp__jw_bool(&w, "fixed_lengths", 1);
        if (wl->mixed_chunk) dlp__jw_bool(&w, "mixed_chunk", 1);
        if (wl->same_prompts) dlp__jw_bool(&w, "same_prompts", 1);
        if (wl->max_prefill_tokens > 0) dlp__jw_i64(&w, "max_prefill_tokens", (long long)wl->max_prefill_tokens);
        if (wl->moe_trtllm_gen) dlp__jw_bool(&w, "trtllm_gen_moe", 1);
        if (p->lockstep) dlp__jw_bool(&w, "lockstep", 1);
        dlp__jw_num(&w, "mem_fraction", G6, wl->mem_fraction > 0 ? wl->mem_fraction : DLP_LLM_MEM_FRACTION);
        dlp__jw_i64(&w, "running", (long long)p->running);
        dlp__jw_i64(&w, "max_seqs", (long long)p->max_seqs);
        dlp__jw_num(&w, "preempted", G6, p->preempted);
        dlp__jw_num(&w, "ttft_ms", G6, p->ttft_ms);
        dlp__jw_num(&w, "tpot_ms", G6, p->tpot_ms);
        dlp__jw_num(&w, "e2e_ms", G6, p->e2e_ms);
        dlp__jw_num(&w, "output_tokens_per_s", G6, p->output_tokens_per_s);
        dlp__jw_num(&w, "requests_per_s", G6, p->requests_per_s);
        dlp__jw_num(&w, "energy_per_request_j", G6, p->energy_j);
        dlp__jw_num(&w, "energy_per_token_j", G6, p->energy_per_token_j);
        dlp__jw_num(&w, "power_per_gpu_w", G6, p->power_per_gpu_w);
        dlp__jw_num(&w, "tdp_w", G6, d->tdp_w);
        dlp__jw_i64(&w, "kv_capacity_tokens", (long long)p->kv_capacity_tokens);
        dlp__jw_num(&w, "kv_cache_gib_per_gpu", G6, p->kv_cache_gib);
        dlp__jw_num(&w, "prefill_ms", G6, p->prefill_ms);
        dlp__jw_num(&w, "decode_step_ms", G6, p->decode_step_ms);
        dlp__jw_num(&w, "comm_ms", G6, p->comm_ms);
        /* the client model (closed loop at a concurrency, or Poisson
         * arrivals at a rate) and the engine's CPU side */
        dlp__jw_str(&w, "clients", wl->rate > 0 ? "poisson" : wl->offline ? "offline" : "closed_loop");
        if (wl->rate > 0) {
            dlp__jw_num(&w, "rate", G6, wl->rate);
            dlp__jw_num(&w, "capacity_rps", G6, p->capacity_rps);
            dlp__jw_num(&w, "queue_ms", G6, p->queue_ms);
        }
        dlp__jw_str(&w, "engine", dlp_llm_engine_name(wl->engine));
        dlp__jw_num(&w, "overhead_ms", G6, p->overhead_ms);
        dlp__jw_num(&w, "request_ms", G6, p->request_ms);
        dlp__jw_obj(&w, "analytic");
        dlp__jw_num(&w, "ttft_ms", G6, p->ttft_analytic_ms);
        dlp__jw_num(&w, "tpot_ms", G6, p->tpot_analytic_ms);
        dlp__jw_num(&w, "energy_per_request_j", G6, p->energy_analytic_j);
        dlp__jw_end(&w, '}');
        dlp__jw_str(&w, "method", p->method_serving);
        dlp__jw_end(&w, '}');
    } else {
        /* the analytic value beside a learned one (docs/llm.md, "Learned corrections") */
        dlp__jw_obj(&w, "analytic");
        dlp__jw_num(&w, "latency_ms", G6, p->latency_analytic_ms);
        dlp__jw_num(&w, "energy_j", G6, p->energy_analytic_j);
        dlp__jw_end(&w, '}');
    }
    dlp__jw_str(&w, "method", p->method);
    dlp__jw_obj(&w, "methods");
    dlp__jw_str(&w, "throughput", p->method_throughput);
    dlp__jw_str(&w, "memory", p->method_memory);
    dlp__jw_str(&w, "energy", p->method_energy);
    dlp__jw_end(&w, '}');
    dlp__jw_end(&w, '}');
    return dlp__jw_finish(&w, c->id, out, len, err);
}
