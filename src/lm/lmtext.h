/*
 * lmtext.h — text for the language model of issue 14 (docs/gnnlm.md):
 * graph-to-text summaries (the thesis' §7.7.3 template), device
 * descriptions, and the pre-training corpus built from them plus
 * performance statements of the public measured sets; then the
 * pre-training loop (lm_pretrain.c).
 *
 * Not public API (src/lm/).
 */
#ifndef DLP_LMTEXT_H
#define DLP_LMTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "dlperf.h"
#include "util/util.h"

/* ==== text pieces (lmtext.c) ========================================== */

/* 1234567 -> "1.23 million" (3 significant digits; below 1000 the integer). */
const char *dlp__lm_words(double v, char *buf, size_t n);

/* The §7.7.3 graph summary of g (what `dlperf inspect` computes): a
 * "Q: Summarise the graph" / "A: ..." document with nodes, edges, batch,
 * FLOPs, parameters, MACs, depth (longest node path) and width (most nodes
 * at one depth), memory, the first ops in order, and one "Layer:" line per
 * op type (sorted by FLOPs, then count, then name).  `title` (may be NULL:
 * the graph's name) names the model.  Appended to b. */
void dlp__lm_graph_summary(const dlp_graph *g, const char *title, dlp__sb *b);

/* A one-paragraph description of a device setting: what it is (`type`, or
 * NULL for "GPU"/"CPU" from d->kind), its compute units and clock, peak
 * FLOP/s per precision, memory size, type and bandwidth, cache, power,
 * then the setting (precision, runtime, batch; NULL / 0 leave them out).
 * Fields that are 0 / empty are left out, so a hand-filled dlp_device with
 * a name and a few numbers describes a device outside the database.
 * Appended to b. */
void dlp__lm_device_text(const dlp_device *d, const char *type, const char *precision,
                         const char *runtime, int64_t batch, dlp__sb *b);

/* The description of a device setting by name: a HELP column
 * ("titan_rtx_32": the device at batch 32; "gold_6240"), a database id, or
 * a database id with a "_N" batch suffix.  Appended to b; -1 (nothing
 * appended) when the name is none of these.  db NULL: built-in. */
int dlp__lm_setting_text(const dlp_devdb *db, const char *setting, dlp__sb *b);

/* ==== the corpus (lmtext.c) =========================================== */

typedef struct {
    const char *const *graphs;  /* ONNX files or folders (recursive)          */
    int n_graphs;
    const char *shared;         /* the shared data folder (HELP, timm); NULL:
                                   no NAS graphs and no measured statements  */
    int64_t nas_limit;          /* NAS-Bench-201 / FBNet archs used (0: all)  */
    const char *holdout;        /* comma list of HELP columns (titan_rtx_32,
                                   gold_6240, ...) whose measurements are left
                                   out of perf.txt, so that an experiment can
                                   adapt to them honestly; NULL: none        */
    const dlp_devdb *db;        /* device database (NULL: built-in)           */
    void (*warn)(void *u, const char *msg);
    void *warn_user;
} dlp__lm_corpus_opts;

typedef struct {
    int64_t docs[3], bytes[3];  /* graphs.txt, devices.txt, perf.txt           */
    int64_t skipped;            /* graph files that did not load              */
} dlp__lm_corpus_report;

extern const char *const dlp__lm_corpus_files[3];

/* Write graphs.txt, devices.txt and perf.txt into folder out (created);
 * documents are separated by one empty line.  Deterministic: the same
 * inputs give the same bytes. */
dlp_status dlp__lm_corpus_build(const char *out, const dlp__lm_corpus_opts *o,
                                dlp__lm_corpus_report *rep, dlp_error *err);

/* ==== pre-training (lm_pretrain.c) ==================================== */

typedef struct {
    const char *corpus;         /* folder of *.txt (documents split at "\n\n")*/
    const char *out;            /* final model (.dlpm, no optimizer)          */
    const char *checkpoint;     /* training checkpoint (model + Adam + state) */
    int resume;                 /* continue from checkpoint                    */
    const char *config;         /* tiny, small, 1m, 5m                         */
    int64_t steps;              /* schedule length (0: from minutes)          */
    double minutes;             /* wall-clock budget (0: none)                */
    int64_t stop_after;         /* stop after this many steps of this run,
                                   checkpoint written (0: no limit)           */
    int batch, seq;             /* rows per step, tokens per row (0: config)  */
    double lr;                  /* peak learning rate (0: 3e-3 / 1e-3)        */
    int64_t warmup;             /* warm-up steps (0: 2 % of steps, >= 1)      */
    int64_t checkpoint_every;   /* steps (0: 200)                             */
    int64_t eval_rows;          /* held-out rows evaluated (0: 64)            */
    size_t bpe_bytes;           /* tokenizer training text (0: 2 MB)          */
    uint64_t seed;
    /* called after every step; return non-zero to stop (a checkpoint is
       written first) */
    int (*progress)(void *u, int64_t step, int64_t steps, double loss, double lr,
                    double tokens_per_s, double elapsed_s);
    void *progress_user;
    void (*note)(void *u, const char *msg);   /* phase lines; may be NULL      */
    void *note_user;
} dlp__lm_pretrain_opts;

typedef struct {
    int64_t params, vocab, steps_done, steps;
    int64_t train_tokens, heldout_tokens, docs, heldout_docs;
    int64_t tokens_seen;        /* this run's trained tokens                   */
    double train_loss;          /* mean of the last 20 steps                  */
    double heldout_loss, heldout_ppl, heldout_bpb;  /* bits per byte          */
    double seconds, tokens_per_s;
    int stopped;                /* the callback or the budget stopped it      */
} dlp__lm_pretrain_report;

dlp_status dlp__lm_pretrain(const dlp__lm_pretrain_opts *o, dlp__lm_pretrain_report *rep,
                            dlp_error *err);

#endif /* DLP_LMTEXT_H */
