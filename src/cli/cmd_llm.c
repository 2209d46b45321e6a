/*
 * cmd_llm.c — `dlperf llm`: throughput, peak memory, energy and carbon of a
 * large language model on a GPU, without running it (thesis chapter 6).
 *
 * The model comes from the built-in catalogue (--model) or a Hugging Face
 * config.json (--config); the library builds its graph, computes the table
 * 6.3 features and asks the shipped trained models, falling back to the
 * analytic estimate where none covers the device/dtype.  Every answer says
 * which predictor gave it ("method").  `--list` prints the catalogue and
 * the trained models.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int dlp_cmd_llm(int argc, char **argv);

static void usage(FILE *f) {
    fprintf(f,
            "usage: dlperf llm (--model ID | --config FILE) --device D [--batch N] [--seq N]\n"
            "                  [--dtype T] [--kv-dtype T] [--gen N] [--gpus N] [--region R]\n"
            "                  [--samples N] [--analytic] [--json]\n"
            "       dlperf llm (--model ID | --config FILE) --device D (--concurrency N | --max-fit)\n"
            "                  [--prompt N] [--gen N] [--gpus N] [--ep N] [--attention-dp N]\n"
            "                  [--mem-fraction F] [--phase agg|prefill|decode] [--dtype T] [--json]\n"
            "       dlperf llm --list [--json]\n\n"
            "Predicts throughput (samples/s, tokens/s), peak memory (MiB), energy per sample (J)\n"
            "and carbon (g CO2 = energy x PUE x grid intensity) of one forward pass of\n"
            "(batch, seq) tokens, or with --gen N of generating N tokens after the prompt.\n"
            "  --model ID     catalogue id or alias ('dlperf llm --list'), a folder with a config.json,\n"
            "                 or a Hugging Face id in the local hub cache ($HF_HUB_CACHE, $HF_HOME/hub,\n"
            "                 ~/.cache/huggingface/hub), offline\n"
            "  --config FILE  a Hugging Face config.json\n"
            "  --device D     GPU id or name ('dlperf devices')\n"
            "  --batch N      sequences per pass (default 1)\n"
            "  --seq N        tokens per sequence (default 128)\n"
            "  --dtype T      weights: fp32, fp16, bf16; int8, nf4 (bitsandbytes); default: the\n"
            "                 checkpoint's format where the GPU runs it (DeepSeek-V3 fp8, gpt-oss mxfp4), else fp16;\n"
            "                 fp8 (e4m3, 128x128 block scales), int4 (AWQ/GPTQ, group 128),\n"
            "                 mxfp4 (= fp4; MoE: experts only), nvfp4 — docs/llm.md, Precisions\n"
            "  --kv-dtype T   KV cache: fp16, bf16, fp8 or fp32 (default: the activations')\n"
            "  --gen N        generated tokens per sequence (default 0: forward pass only)\n"
            "  --gpus N       tensor-parallel GPUs (default 1)\n"
            "  --images N     VLMs: N images per prompt (--image-size WxH, default 1024x768);\n"
            "                 the image tokens follow the model's patch/merge config, and the\n"
            "                 vision tower runs in prefill (docs/llm.md, Vision-language models)\n"
            "  --video-frames F  VLMs: each of the --images is a video of F frames\n"
            "  --image-tokens N  VLMs: image tokens added to every prompt, raw (instead of --images)\n"
            "  --region R     carbon region (default: the database's; 'dlperf devices --carbon')\n"
            "  --samples N    totals for N samples (default: the batch)\n"
            "  --analytic     use the analytic estimate even where a trained model exists\n"
            "Serving (continuous batching, docs/llm.md \"Serving\"): TTFT, TPOT, tokens/s, energy per\n"
            "request and per token, power per GPU, KV-cache capacity, for one replica of --gpus GPUs:\n"
            "  --concurrency N  closed-loop clients (each sends its next request when one ends)\n"
            "  --rate R         open-loop clients instead: Poisson arrivals, R requests/s per replica;\n"
            "                   TTFT has the wait for a slot; at or past the capacity: refused\n"
            "  --engine E       modern (default; = vllm: vLLM >= 0.6), sglang or trtllm (the same CPU side, their\n"
            "                   schedulers in TTFT), or vllm-v0 (vLLM <= 0.5: CPU scheduling between steps,\n"
            "                   no chunked prefill)\n"
            "  --offline        the --concurrency requests submitted at once as one batch (vLLM's\n"
            "                   LLM.generate(), no API server): no front end, TTFT = the prefill rounds\n"
            "  --eager          the engine runs without CUDA graphs (vLLM's enforce_eager, SGLang's\n"
            "                   disable_cuda_graph, vLLM < 0.2.5): host time per layer on every step\n"
            "  --max-fit        as many requests as the KV cache holds, at most --max-seqs\n"
            "  --prompt N       prompt tokens per request (= --seq); --gen: output tokens (default 128)\n"
            "  --ep N           MoE expert parallelism within --gpus (default 1: experts tensor-parallel)\n"
            "  --expert-slots N redundant experts (EPLB): N expert slots in all, N / --ep on each EP rank,\n"
            "                   the hot experts replicated (N >= the model's experts, a multiple of --ep;\n"
            "                   TensorRT-LLM num_slots, SGLang experts + ep-num-redundant-experts;\n"
            "                   default: the model's experts)\n"
            "  --attention-dp N attention data parallelism within --gpus (default 1)\n"
            "  --mem-fraction F GPU memory the engine takes (default 0.9, vLLM's); served TensorRT-LLM:\n"
            "                   the share of the memory left after weights and activations\n"
            "                   (free_gpu_memory_fraction)\n"
            "  --max-seqs N     sequences the engine runs at once (vLLM's max_num_seqs; default the\n"
            "                   engine's: vLLM 1,024 on GPUs of >= 70 GiB but the A100, else 256;\n"
            "                   TensorRT-LLM 2,048; vllm-v0, SGLang 256); more clients (or more than\n"
            "                   the KV cache holds) queue\n"
            "  --phase P        agg (default), prefill or decode (a disaggregated worker)\n"
            "  --mtp N --mtp-accepted A  speculative decoding with N MTP draft tokens per step, A of\n"
            "                   them accepted per step on average (measured; 0 <= A <= N), as\n"
            "                   TensorRT-LLM / SGLang run DeepSeek's MTP (docs/llm.md, \"MTP\")\n"
            "  --batch-wait-iters N --batch-wait-tokens T  TensorRT-LLM's batch waiting (engine trtllm):\n"
            "                   a prompt that arrives while others decode waits up to N iterations\n"
            "                   (batch_wait_timeout_iters) or until a step would hold T tokens\n"
            "                   (batch_wait_max_tokens_ratio x max_num_tokens)\n"
            "  --recv-interval N  SGLang's scheduler receive interval (engine sglang): the scheduler\n"
            "                   reads new requests every N decode steps, so a prompt arriving while\n"
            "                   others decode waits (N - 1) / 2 steps more (default 1: every step)\n"
            "  --adp-balance-iters N  TensorRT-LLM's attention-DP balance (engine trtllm, attention DP;\n"
            "                   attention_dp_config enable_balance, timeout_iters N): prompts are held\n"
            "                   until every attention-DP rank has one or N iterations have passed\n"
            "  --fixed-lengths  the benchmark sends every request with the same prompt and output\n"
            "                   length (aiperf / genai-perf, stddev 0, ignore_eos): under SGLang's\n"
            "                   prefill-first schedule the waves of clients then never part\n"
            "  --mixed-chunk    SGLang's mixed chunked prefill, its enable_mixed_chunk (engine sglang):\n"
            "                   prefill batches carry the running decodes\n"
            "  --trtllm-gen-moe TensorRT-LLM's moe_config backend TRTLLM (engine trtllm): block-fp8\n"
            "                   experts on Blackwell run the trtllm-gen fused MoE, not DEEPGEMM\n"
            "  --same-prompts   every request is a copy of one prompt, decoded greedily (top_k 1): an\n"
            "                   MoE router sends the copies to the same experts (dense models: no change)\n"
            "  --max-prefill-tokens N  SGLang's --max-prefill-tokens (engine sglang, --phase prefill): a\n"
            "                   busy prefill worker's batch takes whole prompts up to N tokens (default 16384)\n"
            "  --json         JSON output\n");
}

static int list_catalogue(int json) {
    int n = dlp_llm_catalogue_count();
    if (json) fputs("{\"models\":[", stdout);
    else printf("%-44s %-11s %8s %6s %6s %4s %7s %9s\n", "id", "type", "params", "layers", "hidden", "kv", "vocab",
                "max_pos");
    for (int i = 0; i < n; i++) {
        dlp_llm_config c;
        dlp_error e = {0};
        if (dlp_llm_catalogue_get(dlp_llm_catalogue_at(i), &c, &e)) return cli_fail(&e);
        int64_t params = c.params_ref;
        if (!params) {
            dlp_graph *g;
            dlp_llm_weights w;
            if (dlp_llm_build(&c, 1, 1, DLP_QT_FP16, &g, &w, &e) == DLP_OK) {
                params = w.params;
                dlp_graph_free(g);
            }
        }
        if (json) {
            printf("%s{\"id\":", i ? "," : "");
            cli_json_str(stdout, c.id);
            fputs(",\"hf_id\":", stdout);
            cli_json_str(stdout, c.hf_id);
            fputs(",\"model_type\":", stdout);
            cli_json_str(stdout, c.model_type);
            printf(",\"params\":%lld,\"num_hidden_layers\":%lld,\"hidden_size\":%lld,\"num_attention_heads\":%lld,"
                   "\"num_key_value_heads\":%lld,\"vocab_size\":%lld,\"max_position_embeddings\":%lld}",
                   (long long)params, (long long)c.num_hidden_layers, (long long)c.hidden_size,
                   (long long)c.num_attention_heads, (long long)c.num_key_value_heads, (long long)c.vocab_size,
                   (long long)c.max_position_embeddings);
        } else {
            printf("%-44s %-11s %7.2fB %6lld %6lld %4lld %7lld %9lld\n", c.id, c.model_type, (double)params / 1e9,
                   (long long)c.num_hidden_layers, (long long)c.hidden_size, (long long)c.num_key_value_heads,
                   (long long)c.vocab_size, (long long)c.max_position_embeddings);
        }
        /* a failed write names its errno now: the next rows' calls may
         * clear it, and whether the final flush fails again depends on
         * where the buffer was cut */
        if (ferror(stdout)) return cli_write_error("stdout");
    }
    int nm = dlp_llm_model_count();
    if (json) {
        fputs("],\"trained_models\":[", stdout);
        for (int i = 0; i < nm; i++) {
            const dlp_xgb *m = dlp_llm_model_at(i);
            static const char *const keys[] = {"name", "predicts", "workload", "devices", "quants", "data"};
            fputs(i ? ",{" : "{", stdout);
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
                printf("%s\"%s\":", k ? "," : "", keys[k]);
                cli_json_str(stdout, dlp_xgb_get_meta(m, keys[k]));
            }
            fputc('}', stdout);
        }
        fputs("]}\n", stdout);
    } else {
        printf("\n%d trained models (used where they cover the device, dtype and workload):\n", nm);
        for (int i = 0; i < nm; i++) {
            const dlp_xgb *m = dlp_llm_model_at(i);
            printf("  %-34s predicts %-12s workload %-8s dtypes %-10s devices %s\n", dlp_xgb_get_meta(m, "name"),
                   dlp_xgb_get_meta(m, "predicts"), dlp_xgb_get_meta(m, "workload"), dlp_xgb_get_meta(m, "quants"),
                   dlp_xgb_get_meta(m, "devices"));
        }
    }
    return 0;
}

/* What the command line asks for, and what follows from it before the
 * library is called (the parsed dtypes and phase, serving or not). */
typedef struct {
    const char *model, *config, *device, *dtype, *region, *kvdtype, *phase_s, *memfrac_s, *imgsize, *rate_s, *engine_s,
        *mtpacc_s;
    int64_t batch, seq, gen, gpus, samples, img, conc, ep, adp, images, frames, maxseqs;
    int json, list, analytic, maxfit, offline, eager, fixed, mixed, trtgen, same, help;
    int quant, kvdt, phase, serving, gen_default, engine;
    double memfrac, rate, mtpacc;
    int64_t mtp, bw_iters, bw_tokens, slots, recv, adpbal, maxpf;
} llm_args;

/* The flags into *a; 0, or the exit code after a one-line message. */
static int parse_args(int argc, char **argv, llm_args *a) {
    const cli_flag flags[] = {
        {.flag = "--model", .s = &a->model},
        {.flag = "--config", .s = &a->config},
        {.flag = "--device", .s = &a->device},
        {.flag = "--dtype", .s = &a->dtype},
        {.flag = "--kv-dtype", .s = &a->kvdtype},
        {.flag = "--region", .s = &a->region},
        {.flag = "--phase", .s = &a->phase_s},
        {.flag = "--image-size", .s = &a->imgsize},
        {.flag = "--mem-fraction", .s = &a->memfrac_s},
        {.flag = "--rate", .s = &a->rate_s},
        {.flag = "--engine", .s = &a->engine_s},
        {.flag = "--mtp-accepted", .s = &a->mtpacc_s},
        {.flag = "--mtp", .lo = 1, .hi = 16, .i64 = &a->mtp},
        {.flag = "--batch-wait-iters", .lo = 1, .hi = 1000000, .i64 = &a->bw_iters},
        {.flag = "--batch-wait-tokens", .lo = 1, .hi = (int64_t)1 << 30, .i64 = &a->bw_tokens},
        {.flag = "--batch", .lo = 1, .hi = 1 << 20, .i64 = &a->batch},
        {.flag = "--seq", .lo = 1, .hi = 1 << 22, .i64 = &a->seq},
        {.flag = "--prompt", .lo = 1, .hi = 1 << 22, .i64 = &a->seq},
        {.flag = "--gen", .lo = 0, .hi = 1 << 22, .i64 = &a->gen},
        {.flag = "--concurrency", .lo = 1, .hi = 1 << 24, .i64 = &a->conc},
        {.flag = "--ep", .lo = 1, .hi = 1024, .i64 = &a->ep},
        {.flag = "--expert-slots", .lo = 1, .hi = 1 << 20, .i64 = &a->slots},
        {.flag = "--recv-interval", .lo = 1, .hi = 1000000, .i64 = &a->recv},
        {.flag = "--adp-balance-iters", .lo = 1, .hi = 1000000, .i64 = &a->adpbal},
        {.flag = "--max-prefill-tokens", .lo = 1, .hi = (int64_t)1 << 30, .i64 = &a->maxpf},
        {.flag = "--attention-dp", .lo = 1, .hi = 1024, .i64 = &a->adp},
        {.flag = "--max-seqs", .lo = 1, .hi = 1 << 20, .i64 = &a->maxseqs},
        {.flag = "--gpus", .lo = 1, .hi = 1024, .i64 = &a->gpus},
        {.flag = "--samples", .lo = 1, .hi = (int64_t)1 << 50, .i64 = &a->samples},
        {.flag = "--image-tokens", .lo = 0, .hi = 1000000, .i64 = &a->img},
        {.flag = "--images", .lo = 1, .hi = 10000, .i64 = &a->images},
        {.flag = "--video-frames", .lo = 1, .hi = 100000, .i64 = &a->frames},
        {.flag = "--json", .on = &a->json},
        {.flag = "--list", .on = &a->list},
        {.flag = "--analytic", .on = &a->analytic},
        {.flag = "--max-fit", .on = &a->maxfit},
        {.flag = "--offline", .on = &a->offline},
        {.flag = "--eager", .on = &a->eager},
        {.flag = "--fixed-lengths", .on = &a->fixed},
        {.flag = "--mixed-chunk", .on = &a->mixed},
        {.flag = "--trtllm-gen-moe", .on = &a->trtgen},
        {.flag = "--same-prompts", .on = &a->same},
        {.flag = "--help", .on = &a->help},
        {.flag = "-h", .on = &a->help},
    };
    for (int i = 1; i < argc; i++) {
        int r = cli_flags(argc, argv, &i, flags, CLI_NFLAGS(flags));
        if (r < 0) return DLP_EXIT_BADINPUT;
        if (r == 0) return cli_usage_error("llm", "unknown option '%s'", argv[i]);
        if (a->help) return 0;
    }
    return 0;
}

/* The checks that need no model or device: what is required and what is
 * exclusive, the dtypes, the phase and memory fraction, serving-only flags;
 * sets quant, kvdt, phase, serving and the default --gen.  0, or the exit
 * code after a one-line message. */
static int check_args(llm_args *a) {
    if (!a->model && !a->config)
        return cli_usage_error("llm", "--model ID or --config FILE is required; 'dlperf llm --list' lists the ids");
    if (a->model && a->config) return cli_usage_error("llm", "--model and --config are exclusive");
    if (!a->device) return cli_usage_error("llm", "--device ID is required; 'dlperf devices' lists the ids");
    a->quant = a->dtype ? dlp_quant_parse(a->dtype) : DLP_QT_FP16;
    if (a->quant < 0)
        return cli_failf(DLP_EXIT_BADINPUT,
                         "llm: --dtype '%s' is not fp32, fp16, bf16, int8, nf4, fp8, int4, mxfp4 or nvfp4", a->dtype);
    if (a->kvdtype) {
        int kvdt = a->kvdt = dlp_dtype_parse(a->kvdtype);
        if (kvdt != DLP_DT_FLOAT && kvdt != DLP_DT_FLOAT16 && kvdt != DLP_DT_BFLOAT16 && kvdt != DLP_DT_FLOAT8E4M3FN &&
            kvdt != DLP_DT_FLOAT8E5M2)
            return cli_failf(DLP_EXIT_BADINPUT, "llm: --kv-dtype '%s' is not fp16, bf16, fp8 or fp32", a->kvdtype);
    }
    if (a->phase_s && (a->phase = dlp_llm_phase_parse(a->phase_s)) < 0)
        return cli_failf(DLP_EXIT_BADINPUT, "llm: --phase '%s' is not agg, prefill or decode", a->phase_s);
    if (a->memfrac_s) {
        char *end;
        a->memfrac = strtod(a->memfrac_s, &end);
        if (*end || !(a->memfrac > 0 && a->memfrac <= 1))
            return cli_failf(DLP_EXIT_BADINPUT, "llm: --mem-fraction '%s' is not a number in (0, 1]", a->memfrac_s);
    }
    if (a->rate_s) {
        char *end;
        a->rate = strtod(a->rate_s, &end);
        if (*end || !(a->rate > 0) || !isfinite(a->rate))
            return cli_failf(DLP_EXIT_BADINPUT, "llm: --rate '%s' is not a positive number of requests/s", a->rate_s);
        if (a->conc > 0 || a->maxfit)
            return cli_usage_error("llm", "--rate and --%s are two client models (open and closed loop): give one",
                                   a->maxfit ? "max-fit" : "concurrency");
    }
    if (a->engine_s && (a->engine = dlp_llm_engine_parse(a->engine_s)) < 0)
        return cli_failf(DLP_EXIT_BADINPUT, "llm: --engine '%s' is not modern, vllm, vllm-v0, sglang or trtllm", a->engine_s);
    if (a->maxfit && a->conc > 0)
        return cli_usage_error("llm", "--max-fit and --concurrency are exclusive: --max-fit runs as many requests as "
                                      "fit (at most --max-seqs)");
    a->serving = a->conc > 0 || a->maxfit || a->rate > 0;
    /* offline is a batch submitted at once: the closed-loop clients' count
     * (or --max-fit) is its size; Poisson arrivals are another client */
    if (a->offline && a->rate > 0)
        return cli_usage_error("llm", "--offline and --rate are two client modes (a batch at once, Poisson "
                                      "arrivals): give one");
    if (a->offline && !a->serving)
        return cli_usage_error("llm", "--offline is a serving option: add --concurrency N (the batch) or --max-fit");
    if (!a->serving && a->maxseqs)
        return cli_usage_error("llm", "--max-seqs is a serving option: add --concurrency N, --rate R or --max-fit");
    if (!a->serving && (a->ep > 1 || a->adp > 1 || a->phase_s || a->memfrac_s || a->engine_s))
        return cli_usage_error("llm", "--ep, --attention-dp, --phase, --mem-fraction and --engine are serving options: "
                                      "add --concurrency N, --rate R or --max-fit");
    /* the draft depth and its measured acceptance come together: no
     * acceptance is assumed for the user */
    if (!a->mtp != !a->mtpacc_s)
        return cli_usage_error("llm", "--mtp N and --mtp-accepted A come together (A: accepted drafts per step, "
                                      "measured on the deployment)");
    if (a->mtpacc_s) {
        char *end;
        a->mtpacc = strtod(a->mtpacc_s, &end);
        if (*end || !(a->mtpacc >= 0) || a->mtpacc > (double)a->mtp)
            return cli_failf(DLP_EXIT_BADINPUT, "llm: --mtp-accepted '%s' is not a number in [0, --mtp %lld]",
                             a->mtpacc_s, (long long)a->mtp);
        if (!a->serving)
            return cli_usage_error("llm", "--mtp is a serving option: add --concurrency N, --rate R or --max-fit");
    }
    /* TensorRT-LLM waits only with both limits set */
    if (!a->bw_iters != !a->bw_tokens)
        return cli_usage_error("llm", "--batch-wait-iters N and --batch-wait-tokens T come together (TensorRT-LLM "
                                      "waits only with both)");
    /* options that shape a served run only: refused without clients */
    const struct {
        int on;
        const char *flag;
    } serving_only[] = {
        {a->bw_iters != 0, "--batch-wait-iters"}, {a->eager, "--eager"},
        {a->slots != 0, "--expert-slots"},        {a->recv != 0, "--recv-interval"},
        {a->adpbal != 0, "--adp-balance-iters"},  {a->trtgen, "--trtllm-gen-moe"},
        {a->same, "--same-prompts"},              {a->maxpf != 0, "--max-prefill-tokens"},
    };
    for (size_t i = 0; i < sizeof serving_only / sizeof serving_only[0]; i++)
        if (serving_only[i].on && !a->serving)
            return cli_usage_error("llm", "%s is a serving option: add --concurrency N, --rate R or --max-fit",
                                   serving_only[i].flag);
    if ((a->fixed || a->mixed) && !a->serving)
        return cli_usage_error("llm", "--fixed-lengths and --mixed-chunk are serving options: add --concurrency N, "
                                      "--rate R or --max-fit");
    a->gen_default = a->gen < 0 && a->serving;
    if (a->gen < 0) a->gen = a->serving ? 128 : 0;
    if (a->serving && a->gen < 1)
        return cli_failf(DLP_EXIT_BADINPUT, "llm: --gen 0: serving generates at least one token");
    return 0;
}

/* The image tokens of every prompt: --image-tokens raw, or from --images
 * (--image-size, --video-frames) through the model's vision config; into
 * c->image_tokens and a->img.  0, or the exit code after a message. */
static int image_tokens(llm_args *a, dlp_llm_config *c) {
    dlp_error e = {0};
    if ((a->images || a->frames || a->imgsize) && a->img)
        return cli_usage_error("llm", "--image-tokens is the raw count: give it or --images/--image-size, not both");
    if ((a->frames || a->imgsize) && !a->images) a->images = 1;
    if (a->images) {
        long iw = 1024, ih = 768;
        char tail;
        if (a->imgsize && (sscanf(a->imgsize, "%ldx%ld%c", &iw, &ih, &tail) != 2 || iw < 1 || ih < 1))
            return cli_failf(DLP_EXIT_BADINPUT, "llm: --image-size '%s' is not WIDTHxHEIGHT in pixels", a->imgsize);
        if (dlp_llm_image_tokens(c, a->images, iw, ih, a->frames, &a->img, &e)) return cli_fail(&e);
    }
    c->image_tokens = a->img;
    return 0;
}

/* The one memory story's line, the same words in both modes (docs/llm.md,
 * "One memory story"): what the workload needs per GPU by part. */
static void print_need(const dlp_llm_memory *n, const dlp_device *d, int fits) {
    printf("  needs        %.2f GiB per GPU (weights %.2f + activations %.2f + KV cache %.2f + runtime %.2f) of "
           "%.1f GiB%s\n", n->total_mb / 1024, n->weights_mb / 1024, n->activations_mb / 1024, n->kv_mb / 1024,
           n->runtime_mb / 1024, d->memory_gib, fits ? "" : "  DOES NOT FIT");
}

/* The serving answer as text: the setting, then TTFT, TPOT, end to end,
 * throughput, KV cache, memory, energy and carbon per request. */
static void print_serving(const llm_args *a, const dlp_llm_config *c, const dlp_device *d,
                          const dlp_llm_prediction *pp, const char *reg) {
    const dlp_llm_prediction p = *pp;
    long long gpus = (long long)a->gpus, seq = (long long)a->seq, gen = (long long)a->gen;
    int64_t img = a->img;
    char b1[48], b2[48], b3[48];
    printf("%s on %lld x %s (%s): serving, prompt %lld + %lld output tokens%s, %s", c->id, gpus, d->name,
           d->id, seq, gen, a->gen_default ? " (default)" : "", dlp_quant_name(a->quant));
    if (gpus > 1) printf(", TP %lld", (long long)(a->gpus / a->adp));
    if (a->adp > 1) printf(", attention DP %lld", (long long)a->adp);
    if (a->ep > 1) printf(", EP %lld", (long long)a->ep);
    if (a->slots) printf(", %lld expert slots", (long long)a->slots);
    if (a->phase != DLP_LLM_AGG) printf(", %s worker (disaggregated)", dlp_llm_phase_name(a->phase));
    int pf_only = a->phase == DLP_LLM_PREFILL_ONLY, dec_only = a->phase == DLP_LLM_DECODE_ONLY;
    if (a->rate > 0)
        printf("\n  arrivals     %s requests/s (Poisson; capacity %s requests/s): %s in flight on average",
               dlp__hu_num(a->rate), dlp__hu_num(p.capacity_rps), cli_count((double)p.concurrency, b1, sizeof b1));
    else
        printf("\n  concurrency  %s %s", cli_count((double)p.concurrency, b1, sizeof b1),
               a->offline ? (a->maxfit ? "requests in one offline batch (the most that fit)"
                                       : "requests in one offline batch (no API server)")
               : a->maxfit ? "requests in flight (the most that fit)" : "clients");
    if (p.running < p.concurrency)
        printf("; %s run at once (max-seqs %lld, KV cache %s), the rest queue",
               cli_count((double)p.running, b2, sizeof b2), (long long)p.max_seqs,
               cli_count((double)p.max_concurrency, b3, sizeof b3));
    if (p.preempted > 0) printf("; %.0f %% preempted and recomputed (cache full)", 100.0 * p.preempted);
    if (!dec_only)
        printf("\n  TTFT         %s   (prefill alone %s%s%s; front end %s)   [%s]\n", dlp__hu_ms(p.ttft_ms),
               dlp__hu_ms(p.prefill_ms), a->rate > 0 ? "; wait for a slot " : "",
               a->rate > 0 ? dlp__hu_ms(p.queue_ms) : "", dlp__hu_ms(p.request_ms), p.method_serving);
    else
        printf("\n  (decode worker: the caches arrive prefilled; TTFT is the prefill worker's)\n");
    if (p.lockstep)
        printf("  waves        in lockstep (fixed lengths, prefill first): each wave's prompts run before any\n"
               "               of its decodes; TTFT is the burst's, TPOT carries the wait for the wave's last prompt\n");
    if (img && p.vision_params)
        printf("  images       %lld image tokens per request; vision tower %s of the prefill (%s "
               "parameters)\n", (long long)img, dlp__hu_ms(p.vision_ms), dlp__hu_params((double)p.vision_params));
    else if (img)
        printf("  images       %lld image tokens per request (the config describes no tower depth: not timed)\n",
               (long long)img);
    if (!pf_only)
        printf("  TPOT / ITL   %s   (decode step alone %s; collectives %s, engine CPU %s per step%s)\n",
               dlp__hu_ms(p.tpot_ms), dlp__hu_ms(p.decode_step_ms), dlp__hu_ms(p.comm_ms), dlp__hu_ms(p.overhead_ms),
               a->eager ? ", with the eager kernel launches: no CUDA graphs" : "");
    if (strcmp(p.method_serving, "analytic"))
        printf("  analytic     TTFT %s, TPOT %s, %s per request\n", dlp__hu_ms(p.ttft_analytic_ms),
               dlp__hu_ms(p.tpot_analytic_ms), dlp__hu_j(p.energy_analytic_j));
    printf("  end to end   %s per request%s\n", dlp__hu_ms(p.e2e_ms), pf_only ? " (to the first token)" : "");
    if (pf_only)
        printf("  throughput   %s prompt tokens/s, %s requests/s (one replica of %lld GPU%s)\n",
               cli_count(p.tokens_per_s, b1, sizeof b1), dlp__hu_num(p.requests_per_s), gpus, gpus == 1 ? "" : "s");
    else
        printf("  throughput   %s output tokens/s, %s requests/s (one replica of %lld GPU%s)\n",
               cli_count(p.output_tokens_per_s, b1, sizeof b1), dlp__hu_num(p.requests_per_s), gpus,
               gpus == 1 ? "" : "s");
    printf("  KV cache     %.1f GiB per GPU: %s tokens, %s sequences of %lld tokens (memory fraction %.2f)\n",
           p.kv_cache_gib, cli_count((double)p.kv_capacity_tokens, b1, sizeof b1),
           cli_count((double)p.max_concurrency, b2, sizeof b2), (long long)(a->seq + img + a->gen),
           a->memfrac > 0 ? a->memfrac : DLP_LLM_MEM_FRACTION);
    printf("  memory       %.1f GiB per GPU (weights %.1f, activations + cache in use %.1f)\n", p.memory_mb / 1024,
           p.weights_mb / 1024, p.activations_mb / 1024);
    print_need(&p.need, d, 1);
    printf("  workspace    %.2f GiB per GPU beside the cache: the engine reserves a full prefill chunk's activations "
           "(serving only: it sizes the KV cache, not the test above)\n", p.need.workspace_mb / 1024);
    printf("  energy       %s per request, %s per %s token; %s per GPU (TDP %s)\n", dlp__hu_j(p.energy_j),
           dlp__hu_j(p.energy_per_token_j), pf_only ? "prompt" : "output", dlp__hu_w(p.power_per_gpu_w),
           dlp__hu_w(d->tdp_w));
    printf("  carbon       %s CO2 per request (%s, %.0f g/kWh, PUE %.2f)\n", dlp__hu_g(p.co2_g), reg,
           p.carbon_g_per_kwh, p.pue);
    if (p.active_params != p.params)
        printf("  MoE: %s active parameters per token of %s\n", dlp__hu_params((double)p.active_params),
               dlp__hu_params((double)p.params));
}

/* The forward-pass / generate answer as text: throughput, latency, memory,
 * energy and carbon per sample, then the totals for `samples`. */
static void print_generate(const llm_args *a, const dlp_llm_config *c, const dlp_device *d,
                           const dlp_llm_prediction *pp, const char *reg, int64_t samples) {
    const dlp_llm_prediction p = *pp;
    int64_t img = a->img, gen = a->gen;
    int quant = a->quant;
    double tot_s = (double)samples / p.throughput_sps, tot_j = p.energy_j * (double)samples,
           tot_g = p.co2_g * (double)samples;
    printf("%s on %s (%s): batch %lld x seq %lld%s, %s%s\n", c->id, d->name, d->id, (long long)a->batch,
           (long long)a->seq, gen ? "" : " (forward pass)", dlp_quant_name(quant), a->gpus > 1 ? ", tensor parallel" : "");
    if (gen) printf("  generating %lld tokens per sequence\n", (long long)gen);
    if (img && p.vision_params)
        printf("  images       %lld image tokens per sequence; vision tower %s per batch (%s "
               "parameters)\n", (long long)img, dlp__hu_ms(p.vision_ms), dlp__hu_params((double)p.vision_params));
    else if (img)
        printf("  images       %lld image tokens per sequence (the config describes no tower depth: not "
               "timed)\n", (long long)img);
    printf("  precision    weights %s, compute %s%s, KV cache %s\n", dlp_quant_name(quant),
           dlp_dtype_short(p.compute_dtype), p.weight_only ? " (weight-only: dequantised in the kernel)" : "",
           dlp_dtype_short(p.kv_dtype));
    if (quant >= DLP_QT_FP8 && !strcmp(p.method, "analytic") && !a->analytic)
        printf("  (analytic estimate: the trained models cover fp32/fp16/bf16 only)\n");
    char b1[48], b2[48];
    printf("  throughput   %s samples/s, %s tokens/s   [%s]\n", cli_count(p.throughput_sps, b1, sizeof b1),
           cli_count(p.tokens_per_s, b2, sizeof b2), p.method_throughput);
    printf("  latency      %s per batch\n", dlp__hu_ms(p.latency_ms));
    if (strcmp(p.method_throughput, "analytic") || strcmp(p.method_energy, "analytic"))
        printf("  analytic     %s per batch, %s per sample (the learned value is held within %gx of it)\n",
               dlp__hu_ms(p.latency_analytic_ms), dlp__hu_j(p.energy_analytic_j), DLP_LLM_MAX_FACTOR);
    printf("  peak memory  %.1f MiB (weights %.1f + activations and KV cache %.1f + runtime %.1f)   [%s]\n",
           p.memory_mb, p.weights_mb, p.activations_mb, p.need.runtime_mb, p.method_memory);
    print_need(&p.need, d, p.fits);
    printf("  energy       %s per sample (%s)   [%s]\n", dlp__hu_j(p.energy_j), dlp__hu_w(p.power_w), p.method_energy);
    printf("  carbon       %s CO2 per sample (%s, %.0f g/kWh, PUE %.2f)\n", dlp__hu_g(p.co2_g), reg,
           p.carbon_g_per_kwh, p.pue);
    printf("  %s sample%s: %s, %s, %s CO2\n", dlp__hu_count((double)samples), samples == 1 ? "" : "s",
           dlp__hu_ms(tot_s * 1e3), dlp__hu_j(tot_j), dlp__hu_g(tot_g));
    printf("  model: %s parameters, %s MACs per pass, %s nodes, %s edges\n", dlp__hu_params((double)p.params),
           dlp__hu_si((double)p.macs, ""), dlp__hu_count((double)p.nodes), dlp__hu_count((double)p.edges));
    if (p.active_params != p.params)
        printf("  MoE: %s active parameters per token of %s\n", dlp__hu_params((double)p.active_params),
               dlp__hu_params((double)p.params));
    printf("  KV cache     %s MiB per sequence of %lld tokens\n", dlp__hu_num(p.kv_bytes_per_seq / 1048576.0),
           (long long)(a->seq + img + gen));
}

/* The model, the device and the prediction, then its answer as JSON (the
 * library's bytes, as POST /api/llm) or text. */
static int predict_and_print(llm_args *a, dlp_llm_config *c) {
    dlp_error e = {0};
    dlp_status st;
    dlp_devdb *db = NULL;
    if ((st = dlp_devdb_load(NULL, &db, &e))) return cli_fail(&e);
    const dlp_device *d = dlp_devdb_find(db, a->device);
    if (!d) {
        int rc = cli_unknown_device(db, a->device);
        dlp_devdb_free(db);
        return rc;
    }
    /* no --dtype: the checkpoint's own format where the GPU runs it */
    if (!a->dtype) a->quant = dlp_llm_default_quant(c, d);
    dlp_llm_workload wl = {.batch = a->batch, .seq = a->seq, .gen_tokens = a->gen, .quant = a->quant,
                           .n_gpus = (int)a->gpus, .kv_dtype = a->kvdt, .concurrency = a->conc, .max_fit = a->maxfit,
                           .ep = (int)a->ep, .attn_dp = (int)a->adp, .phase = a->phase, .mem_fraction = a->memfrac,
                           .max_seqs = a->maxseqs, .rate = a->rate, .engine = a->engine, .offline = a->offline, .eager = a->eager,
                           .spec_tokens = (int)a->mtp, .spec_accepted = a->mtpacc,
                           .batch_wait_iters = (int)a->bw_iters, .batch_wait_tokens = (double)a->bw_tokens,
                           .expert_slots = (int)a->slots, .recv_interval = (int)a->recv,
                           .adp_balance_iters = (int)a->adpbal, .fixed_lengths = a->fixed,
                           .mixed_chunk = a->mixed, .moe_trtllm_gen = a->trtgen, .same_prompts = a->same,
                           .max_prefill_tokens = a->maxpf};
    dlp_llm_prediction p;
    dlp_llm_predict_opts po = {.region = a->region, .analytic_only = a->analytic};
    if ((st = dlp_llm_predict(c, d, db, &wl, &po, &p, &e))) {
        dlp_devdb_free(db);
        return cli_fail(&e);
    }
    int64_t samples = a->samples ? a->samples : a->serving ? p.concurrency : a->batch;
    const char *reg = a->region && *a->region ? a->region : dlp_carbon_default_region(db);
    int rc = 0;
    if (a->json) {
        char *buf;
        size_t len;
        st = dlp_llm_json(c, d, &wl, &p, samples, reg, &buf, &len, &e);
        rc = cli_print_json(st, buf, len, &e);
    } else if (p.serving) {
        print_serving(a, c, d, &p, reg);
    } else {
        print_generate(a, c, d, &p, reg, samples);
    }
    dlp_devdb_free(db);
    return rc;
}

int dlp_cmd_llm(int argc, char **argv) {
    llm_args a = {.batch = 1, .seq = 128, .gen = -1, .gpus = 1, .ep = 1, .adp = 1, .phase = DLP_LLM_AGG};
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc;
    if (a.help) {
        usage(stdout);
        return 0;
    }
    if (a.list) return list_catalogue(a.json);
    if ((rc = check_args(&a))) return rc;
    dlp_error e = {0};
    dlp_llm_config c;
    dlp_status st = a.model ? dlp_llm_model_find(a.model, &c, &e) : dlp_llm_config_load(a.config, &c, &e);
    if (st) return cli_fail(&e);
    if ((rc = image_tokens(&a, &c))) return rc;
    return predict_and_print(&a, &c);
}
