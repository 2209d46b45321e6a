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

#endif
