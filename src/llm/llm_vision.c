/*
 * llm_vision.c — the vision tower of a VLM (docs/llm.md, "Vision-language
 * models"): how many language tokens an image becomes, the tower's weights,
 * and its time in prefill.
 *
 * Why a model of its own rather than the language graph: an image costs the
 * language stack exactly what as many text tokens cost (they are rows of the
 * same matrices and entries of the same KV cache), but before that a ViT runs
 * over the image's patches — merge^2 patches per token on Qwen-VL, a fixed
 * 896 x 896 SigLIP input pooled to 256 tokens on Gemma 3.  That tower is a
 * plain pre-norm transformer encoder, so its cost is its GEMMs (qkv, out,
 * MLP, patch embedding, merger) and its full attention over each image,
 * timed with the same per-kernel curves as the serving model and `dlperf
 * predict` (src/predict/curves.c).  It runs once per request, in prefill;
 * decode never sees it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "llm/llm_internal.h"
#include "predict/curves.h"
#include "predict/roofline.h"
#include "util/util.h"

/* Qwen-VL image processors resize to multiples of patch x merge within
 * [min_pixels, max_pixels]: 4 and 16,384 tokens per image (Qwen2.5-VL
 * min_pixels 56 x 56 = 3,136 = 4 x 28^2, max_pixels 12,845,056 = 16,384 x
 * 28^2; Qwen3-VL the same counts at 32 px per token). */
#define QWEN_MIN_TOKENS 4.0
#define QWEN_MAX_TOKENS 16384.0

int64_t dlp_llm_vision_params(const dlp_llm_config *c) {
    if (!c || c->vision_layers <= 0 || c->vision_hidden <= 0) return 0;
    int64_t H = c->vision_hidden, I = c->vision_intermediate, P = c->vision_patch, m = c->vision_merge;
    int64_t t = c->vision_temporal_patch > 0 ? c->vision_temporal_patch : 1, out = c->vision_out_hidden;
    /* a block: q, k, v, o with biases; the MLP (SwiGLU: gate, up, down);
     * two norms (weight + bias; RMSNorm towers count a few thousand less) */
    int64_t block = 4 * H * H + 4 * H + (c->vision_gated ? 3 * H * I + 2 * I + H : 2 * H * I + I + H) + 4 * H;
    int64_t n = c->vision_layers * block + 3 * P * P * t * H + H; /* + the patch embedding (a conv) */
    if (c->vision_image_size > 0 && c->vision_proj_hidden > 0) {
        /* InternVL mlp1 (Nemotron Nano VL): RMSNorm over the H m^2 shuffled
         * patches, Linear(H m^2, proj), ReLU^2, Linear(proj, out), no
         * biases; positions as a (size / patch)^2 table (RADIO's is sized to
         * its max_resolution: 21M more on RADIO-H, 0.16 % of the model) */
        int64_t side = c->vision_image_size / P, hm = H * m * m, ph = c->vision_proj_hidden;
        n += side * side * H + hm + hm * ph + ph * out;
    } else if (c->vision_image_size > 0) {
        /* SigLIP: learned positions, post-norm, and Gemma 3's projector
         * (RMSNorm + H x text hidden) after the average pool */
        int64_t side = c->vision_image_size / P;
        n += side * side * H + 2 * H + H + H * out;
    } else {
        /* Qwen-VL merger: norm, Linear(H m^2, H m^2), GELU, Linear(H m^2,
         * out); Qwen3-VL adds deepstack mergers of the same shape */
        int64_t hm = H * m * m;
        n += (1 + (c->vision_deepstack > 0 ? c->vision_deepstack : 0)) * (H + hm * hm + hm + hm * out + out);
    }
    return n;
}

/* InternVL's dynamic_preprocess: the grid (i, j) of at most max_tiles tiles
 * whose aspect ratio i / j is closest to the image's, grids taken by area;
 * on a tie the larger grid when the image has more than half its pixels;
 * plus a thumbnail when cut into more than one.  1024 x 768 (4:3) with 12
 * tiles -> the 4 x 3 grid + thumbnail = 13 tiles. */
static int64_t vision_tiles(const dlp_llm_config *c, int64_t width, int64_t height) {
    double ar = (double)width / (double)height, best = INFINITY, area = (double)width * (double)height;
    double sz = (double)c->vision_image_size;
    int64_t bi = 1, bj = 1, n = c->vision_max_tiles;
    for (int64_t a = 1; a <= n; a++)          /* area a = i x j, ascending */
        for (int64_t i = 1; i <= a; i++) {
            if (a % i) continue;
            int64_t j = a / i;
            double diff = fabs(ar - (double)i / (double)j);
            if (diff < best) {
                best = diff;
                bi = i;
                bj = j;
            } else if (diff == best && area > 0.5 * sz * sz * (double)(i * j)) {
                bi = i;
                bj = j;
            }
        }
    int64_t t = bi * bj;
    return t + (c->vision_thumbnail && t != 1 ? 1 : 0);
}

dlp_status dlp_llm_image_tokens(const dlp_llm_config *c, int64_t images, int64_t width, int64_t height,
                                int64_t frames, int64_t *tokens, dlp_error *err) {
    if (!c || !tokens) return dlp__err(err, DLP_EINVAL, "dlp_llm_image_tokens: NULL argument");
    *tokens = 0;
    if (c->vision_hidden <= 0)
        return dlp__err(err, DLP_EINVAL, "%s: images: the model has no vision tower (no vision_config); it reads text only",
                        c->id);
    if (c->vision_layers <= 0 && c->vision_tokens_per_image <= 0)
        return dlp__err(err, DLP_EINVAL, "%s: images: its vision_config gives no patch layout to count tokens by; "
                        "give --image-tokens", c->id);
    if (images < 1 || images > 10000 || width < 1 || height < 1 || width > 65536 || height > 65536 || frames < 0 ||
        frames > 100000)
        return dlp__err(err, DLP_EINVAL, "%s: images %lld of %lld x %lld pixels (frames %lld) out of range", c->id,
                        (long long)images, (long long)width, (long long)height, (long long)frames);
    double per;
    if (c->vision_max_tiles > 0 && c->vision_image_size > 0) {
        /* InternVL dynamic tiling: tiles of image_size, a video frame one */
        double side = (double)(c->vision_image_size / c->vision_patch) / (double)c->vision_merge;
        per = side * side * (frames > 0 ? (double)frames : (double)vision_tiles(c, width, height));
        frames = 0;
    } else if (c->vision_tokens_per_image > 0) {
        per = (double)c->vision_tokens_per_image; /* fixed input size: the picture is resized to it */
    } else if (c->vision_image_size > 0) {
        double side = (double)(c->vision_image_size / c->vision_patch) / (double)c->vision_merge;
        per = side * side;
    } else {
        /* Qwen-VL smart_resize: nearest multiple of f = patch x merge on each
         * side, scaled down (up) to keep within the token bounds */
        double f = (double)(c->vision_patch * c->vision_merge), h = (double)height, w = (double)width;
        double hb = fmax(f, round(h / f) * f), wb = fmax(f, round(w / f) * f);
        if (hb * wb > QWEN_MAX_TOKENS * f * f) {
            double beta = sqrt(h * w / (QWEN_MAX_TOKENS * f * f));
            hb = fmax(f, floor(h / beta / f) * f);
            wb = fmax(f, floor(w / beta / f) * f);
        } else if (hb * wb < QWEN_MIN_TOKENS * f * f) {
            double beta = sqrt(QWEN_MIN_TOKENS * f * f / (h * w));
            hb = ceil(h * beta / f) * f;
            wb = ceil(w * beta / f) * f;
        }
        per = (hb / f) * (wb / f);
    }
    /* video: frames / temporal_patch groups, each one image's tokens */
    if (frames > 0) {
        int64_t tp = c->vision_temporal_patch > 0 ? c->vision_temporal_patch : 1;
        per *= (double)((frames + tp - 1) / tp);
    }
    double tot = per * (double)images;
    if (tot > 1000000)
        return dlp__err(err, DLP_EINVAL, "%s: images give %.0f image tokens, more than 1,000,000", c->id, tot);
    *tokens = (int64_t)tot;
    return DLP_OK;
}

/* Patches the tower sees for `image_tokens` tokens, and over how many
 * images (attention is within an image).  Fixed-size towers: whole images
 * of (size / patch)^2 patches; Qwen-VL: merge^2 patches per token, the
 * tokens taken as one image (the attention cost of the largest case). */
static void vision_patches(const dlp_llm_config *c, double image_tokens, double *patches, double *images) {
    double m2 = (double)(c->vision_merge * c->vision_merge);
    if (c->vision_image_size > 0) {
        double side = (double)(c->vision_image_size / c->vision_patch);
        double per_tok = c->vision_tokens_per_image > 0 ? (double)c->vision_tokens_per_image : side * side / m2;
        *images = ceil(image_tokens / per_tok);
        *patches = side * side;
    } else {
        *images = 1;
        *patches = image_tokens * m2;
    }
}

double dlp__llm_vision_s(const dlp_llm_config *c, const dlp_device *d, int adt, int64_t image_tokens, int tp,
                         double *busy) {
    if (busy) *busy = 0;
    if (!c || !d || c->vision_layers <= 0 || image_tokens <= 0) return 0;
    int tc;
    double peak = dlp__node_peak(d, DLP_OPC_GEMM, adt, DLP_TF32_OFF, &tc);
    int prec = tc ? dlp__prec_of_dtype(adt) : DLP__PREC_FP32;
    const dlp_eff_curve *cg = &dlp__kcurve_get(prec, DLP_KC_GEMM)->c, *ca = &dlp__kcurve_get(prec, DLP_KC_ATTN)->c,
                        *ce = &dlp__kcurve_get(DLP__PREC_FP32, DLP_KC_ELEMENTWISE)->c;
    double pvec = dlp_device_peak_flops(d, DLP_DT_FLOAT, 0), bw = d->mem_bandwidth_gbs * 1e9;
    if (peak <= 0 || bw <= 0) return 0;
    double ab = adt == DLP_DT_FLOAT ? 4.0 : 2.0;
    double P, nimg;
    vision_patches(c, (double)image_tokens, &P, &nimg);
    double H = (double)c->vision_hidden, I = (double)c->vision_intermediate, L = (double)c->vision_layers;
    double tpd = tp > 1 ? (double)tp : 1.0; /* the engine shards the tower's heads and MLP over TP */
    double t = 0, b = 0;
#define GEMM(m, k, n, cnt)                                                                                      \
    do {                                                                                                          \
        double f_ = 2.0 * (m) * (k) * (n) / tpd, by_ = ((k) * (n) / tpd + (m) * ((k) + (n) / tpd)) * ab;          \
        t += (cnt) * dlp__kernel_time(cg, f_, by_, peak, bw);                                                     \
        b += (cnt) * dlp__roof_time(f_, by_, peak, bw);                                                           \
    } while (0)
    double M = P * nimg;
    double kpatch = 3.0 * (double)(c->vision_patch * c->vision_patch) *
                    (double)(c->vision_temporal_patch > 0 ? c->vision_temporal_patch : 1);
    GEMM(M, kpatch, H, 1);                                  /* patch embedding */
    GEMM(M, H, 3.0 * H, L);                                 /* q, k, v        */
    GEMM(M, H, H, L);                                       /* out            */
    GEMM(M, H, (c->vision_gated ? 2.0 : 1.0) * I, L);       /* up (+ gate)    */
    GEMM(M, I, H, L);                                       /* down           */
    /* attention within each image: QK^T and PV, 4 P x keys x H FLOPs per
     * layer, keys = the image's P patches, or a window of them on
     * Qwen2.5-VL's windowed layers */
    {
        double Lfull = L, Lwin = 0;
        if (c->vision_window > 0) {
            Lfull = fmin(L, (double)c->vision_full_layers);
            Lwin = L - Lfull;
        }
        double by = 4.0 * M * H / tpd * ab;
        double ff = 4.0 * P * P * H * nimg / tpd, fw = 4.0 * P * fmin(P, (double)c->vision_window) * H * nimg / tpd;
        t += Lfull * dlp__kernel_time(ca, ff, by, peak, bw) + Lwin * dlp__kernel_time(ca, fw, by, peak, bw);
        b += Lfull * dlp__roof_time(ff, by, peak, bw) + Lwin * dlp__roof_time(fw, by, peak, bw);
    }
    /* norms, activations, residuals: about 12 passes over (M, H) per block */
    {
        double by = 12.0 * M * H * ab / tpd;
        t += L * dlp__kernel_time(ce, 0, by, pvec, bw);
        b += L * dlp__roof_time(0, by, pvec, bw);
    }
    /* merger / projector into the language width */
    double out = (double)c->vision_out_hidden, tok = (double)image_tokens;
    if (c->vision_image_size > 0 && c->vision_proj_hidden > 0) {
        double hm = H * (double)(c->vision_merge * c->vision_merge), ph = (double)c->vision_proj_hidden;
        GEMM(tok, hm, ph, 1);
        GEMM(tok, ph, out, 1);
    } else if (c->vision_image_size > 0) {
        GEMM(tok, H, out, 1);
    } else {
        double hm = H * (double)(c->vision_merge * c->vision_merge);
        double nm = 1.0 + (double)(c->vision_deepstack > 0 ? c->vision_deepstack : 0);
        GEMM(tok, hm, hm, nm);
        GEMM(tok, hm, out, nm);
    }
#undef GEMM
    if (busy) *busy = b;
    return t;
}
