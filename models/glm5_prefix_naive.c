/* The naive reference of the GLM-5 decode attention prefix: the oracle every executor is
 * checked against. Written straight from ../shared/GLM5_PREFIX.md and docs/NUMERICS.md
 * with plain loops, one op after the other, whole tensors at a time. It shares no code
 * with src/ops (only the conversions of numerics.h), and it computes RoPE cos/sin itself
 * rather than reading io->rope_cs, so a wrong host table cannot hide in both.
 *
 * Precision: every rounding point of NUMERICS.md is reproduced (bf16 outputs of GEMMs,
 * fp32 norms, e4m3 codes); sums and dot products accumulate in fp64. Products of two e4m3
 * values (or two bf16 values) are exact in fp32, and a 128-long fp64 sum of e4m3 products
 * is exact too, so the per-block FP8 dot products here are the exact ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glm5_prefix.h"
#include "internal.h"
#include "numerics.h"

static float bf(uint16_t v) { return mrt_bf16_to_f32(v); }

/* out = w * in * rsqrt(mean(in^2) + eps), fp32 (mean accumulated in fp64). */
static void rms_norm(const float *in, const uint16_t *w, size_t n, float eps, float *out) {
    double ss = 0.0;
    for (size_t i = 0; i < n; i++) ss += (double)in[i] * (double)in[i];
    float ms = (float)(ss / (double)n);
    float rs = (float)(1.0 / sqrt((double)(ms + eps)));
    for (size_t i = 0; i < n; i++) out[i] = bf(w[i]) * in[i] * rs;
}

/* 1x128 activation quantization of fp32 x: s = max(amax,1e-10)/448, code = e4m3(x / s).
 * Stores the decoded code values (what the GEMMs multiply) and the scales. */
static void quant_1x128(const float *x, size_t n, const float *lut, float *xq, float *s) {
    for (size_t g = 0; g < n / 128; g++) {
        float amax = 0.0f;
        for (size_t i = g * 128; i < g * 128 + 128; i++) amax = fmaxf(amax, fabsf(x[i]));
        float sc = mrt_block_scale(amax);
        s[g] = sc;
        for (size_t i = g * 128; i < g * 128 + 128; i++) xq[i] = lut[mrt_f32_to_e4m3(x[i] / sc)];
    }
}

/* Interleaved RoPE over v[0 : rot]: pairs (2i, 2i+1), angles of position pos. */
static void rope(float *v, int rot, int pos, double theta) {
    for (int i = 0; i < rot / 2; i++) {
        float c, s;
        mrt_rope_cos_sin(pos, i, rot, theta, &c, &s);
        mrt_rope_pair(&v[2 * i], &v[2 * i + 1], c, s);
    }
}

/* Block-scaled FP8 GEMM: out[t, r] = bf16( sum_kb dot(a[t, kb], W[r, kb]) * sa[t, kb] *
 * sW[r/128, kb] ) for r < N. `a` holds decoded e4m3 values [M, K], `sa` [M, K/128];
 * W [N, K] codes, sW [ceil(N/128), K/128]. `wrow` is K floats of scratch. */
static void gemm_fp8(const float *a, const float *sa, const uint8_t *W, const float *sW, size_t M,
                     size_t N, size_t K, const float *lut, float *wrow, float *out) {
    size_t kbn = K / 128;
    for (size_t r = 0; r < N; r++) {
        for (size_t k = 0; k < K; k++) wrow[k] = lut[W[r * K + k]];
        const float *sw = sW + (r / 128) * kbn;
        for (size_t t = 0; t < M; t++) {
            const float *at = a + t * K;
            double acc = 0.0;
            for (size_t kb = 0; kb < kbn; kb++) {
                double d = 0.0;
                for (size_t k = kb * 128; k < kb * 128 + 128; k++) d += (double)(at[k] * wrow[k]);
                acc += d * (double)sa[t * kbn + kb] * (double)sw[kb];
            }
            out[t * N + r] = mrt_round_bf16((float)acc);
        }
    }
}

typedef struct scored {
    float v;
    int32_t j;
} scored;

/* Logit descending, then logical index ascending: a total order, so the result does not
 * depend on the sort algorithm. */
static int cmp_scored(const void *pa, const void *pb) {
    const scored *a = pa, *b = pb;
    if (a->v > b->v) return -1;
    if (a->v < b->v) return 1;
    return (a->j > b->j) - (a->j < b->j);
}
static int cmp_index(const void *pa, const void *pb) {
    const scored *a = pa, *b = pb;
    return (a->j > b->j) - (a->j < b->j);
}

static mrt_status check_io(mrt_context *ctx, const glm5_host *io) {
    if (!io) return mrt_fail(ctx, MRT_ERR_INVALID, "glm5_naive: io is NULL");
    mrt_status st = glm5_check_shape(ctx, &io->cfg, &io->shape);
    if (st != MRT_OK) return st;
    const void *bufs[] = {io->h,     io->res,   io->pos,    io->block_table, io->w_in,   io->W_A,
                          io->sW_A,  io->w_qn,  io->w_kvn,  io->W_gate,      io->W_k,    io->sW_k,
                          io->ln_k_w, io->ln_k_b, io->W_qb, io->sW_qb,       io->W_iq,   io->sW_iq,
                          io->W_uk,  io->mla_cache, io->idx_cache, io->r_new, io->qmla, io->logits,
                          io->topk};
    static const char *names[] = {"h",     "res",    "pos",    "block_table", "w_in",  "W_A",
                                  "sW_A",  "w_qn",   "w_kvn",  "W_gate",      "W_k",   "sW_k",
                                  "ln_k_w", "ln_k_b", "W_qb",  "sW_qb",       "W_iq",  "sW_iq",
                                  "W_uk",  "mla_cache", "idx_cache", "r_new", "qmla", "logits",
                                  "topk"};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (!bufs[i]) return mrt_fail(ctx, MRT_ERR_INVALID, "glm5_naive: buffer %s is NULL", names[i]);

    int bpr = glm5_blocks_per_req(&io->shape, &io->cfg);
    if (io->num_blocks != io->shape.batch * bpr)
        return mrt_fail(ctx, MRT_ERR_INVALID,
                        "glm5_naive: num_blocks = %d, expected batch %d x %d blocks per request",
                        io->num_blocks, io->shape.batch, bpr);
    /* Cache writes go through these, so a bad entry would write out of bounds. */
    for (int i = 0; i < io->shape.batch * bpr; i++)
        if (io->block_table[i] < 0 || io->block_table[i] >= io->num_blocks)
            return mrt_fail(ctx, MRT_ERR_INVALID,
                            "glm5_naive: block_table[%d][%d] = %d is outside 0..%d", i / bpr, i % bpr,
                            io->block_table[i], io->num_blocks - 1);
    for (int t = 0; t < io->shape.m; t++)
        if (io->pos[t] < 0 || io->pos[t] >= io->shape.kv)
            return mrt_fail(ctx, MRT_ERR_INVALID,
                            "glm5_naive: pos[%d] = %d is outside the context 0..%d", t, io->pos[t],
                            io->shape.kv - 1);
    return MRT_OK;
}

mrt_status glm5_naive(mrt_context *ctx, glm5_host *io) {
    mrt_status st = check_io(ctx, io);
    if (st != MRT_OK) return st;

    const glm5_config *c = &io->cfg;
    const size_t M = (size_t)io->shape.m, KV = (size_t)io->shape.kv;
    const size_t n_new = M / (size_t)io->shape.batch;
    const size_t H = (size_t)c->hidden, QL = (size_t)c->q_lora, KL = (size_t)c->kv_lora;
    const size_t NOPE = (size_t)c->qk_nope, R = (size_t)c->qk_rope, HEADS = (size_t)c->heads;
    const size_t IH = (size_t)c->idx_heads, ID = (size_t)c->idx_dim, TOPK = (size_t)c->topk;
    const size_t NA = (size_t)glm5_qkv_a_cols(c), NQB = HEADS * (NOPE + R), NIQ = IH * ID;
    const size_t BT = (size_t)c->block_tokens, BPR = (size_t)glm5_blocks_per_req(&io->shape, c);
    const size_t ENTRY = (size_t)glm5_mla_entry_bytes(c), IBLK = (size_t)glm5_idx_block_bytes(c);
    const double theta = c->rope_theta;

    float lut[256];
    for (int i = 0; i < 256; i++) lut[i] = mrt_e4m3_to_f32((uint8_t)i);

    size_t wide = H; /* longest row any step holds */
    const size_t dims[] = {QL, KL, ID, R};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        if (dims[i] > wide) wide = dims[i];
    float *x_bf = calloc(M * H, sizeof(float));    /* bf16(x), for the head gate */
    float *x8 = calloc(M * H, sizeof(float));      /* decoded codes of x */
    float *sx = calloc(M * (H / 128), sizeof(float));
    float *qkv = calloc(M * NA, sizeof(float));    /* bf16 q_c | kv_c | k_pe */
    float *qr8 = calloc(M * QL, sizeof(float));
    float *sqr = calloc(M * (QL / 128), sizeof(float));
    float *gate = calloc(M * IH, sizeof(float));
    float *kidx = calloc(M * ID, sizeof(float));
    float *q = calloc(M * NQB, sizeof(float));
    float *qi = calloc(M * NIQ, sizeof(float));
    float *q8i = calloc(M * NIQ, sizeof(float));
    float *wI = calloc(M * IH, sizeof(float));
    float *row = calloc(wide, sizeof(float));
    float *row2 = calloc(wide, sizeof(float));
    double *acc = calloc(KL, sizeof(double));
    scored *sel = calloc(KV, sizeof(scored));
    if (!x_bf || !x8 || !sx || !qkv || !qr8 || !sqr || !gate || !kidx || !q || !qi || !q8i || !wI ||
        !row || !row2 || !acc || !sel) {
        st = mrt_fail(ctx, MRT_ERR_NOMEM, "glm5_naive: cannot allocate intermediates (m = %zu)", M);
        goto done;
    }

    /* A0: r = bf16(h + res), RMSNorm, 1x128 quantization of the fp32 x. */
    for (size_t t = 0; t < M; t++) {
        float *r = row, *x = row2;
        for (size_t k = 0; k < H; k++) {
            uint16_t rb = mrt_f32_to_bf16(bf(io->h[t * H + k]) + bf(io->res[t * H + k]));
            io->r_new[t * H + k] = rb;
            r[k] = bf(rb);
        }
        rms_norm(r, io->w_in, H, c->rms_eps, x);
        for (size_t k = 0; k < H; k++) x_bf[t * H + k] = mrt_round_bf16(x[k]);
        quant_1x128(x, H, lut, x8 + t * H, sx + t * (H / 128));
    }

    /* B0: fused A projection -> q_c | kv_c | k_pe, bf16. */
    gemm_fp8(x8, sx, io->W_A, io->sW_A, M, NA, H, lut, row, qkv);

    /* q_a RMSNorm and 1x128 re-quantization (unfolded form). */
    for (size_t t = 0; t < M; t++) {
        rms_norm(qkv + t * NA, io->w_qn, QL, c->rms_eps, row);
        quant_1x128(row, QL, lut, qr8 + t * QL, sqr + t * (QL / 128));
    }

    /* kv_a RMSNorm, RoPE on k_pe, write the fp8_ds_mla entries of the new tokens. */
    for (size_t t = 0; t < M; t++) {
        size_t b = t / n_new, p = (size_t)io->pos[t];
        size_t blk = (size_t)io->block_table[b * BPR + p / BT];
        uint8_t *e = io->mla_cache + (blk * BT + p % BT) * ENTRY;
        float *kvn = row, *kpe = row2;
        rms_norm(qkv + t * NA + QL, io->w_kvn, KL, c->rms_eps, kvn);
        for (size_t g = 0; g < KL / 128; g++) {
            float amax = 0.0f;
            for (size_t i = g * 128; i < g * 128 + 128; i++) amax = fmaxf(amax, fabsf(kvn[i]));
            float s = mrt_block_scale(amax);
            for (size_t i = g * 128; i < g * 128 + 128; i++) e[i] = mrt_f32_to_e4m3(kvn[i] / s);
            memcpy(e + KL + 4 * g, &s, 4);
        }
        for (size_t i = 0; i < R; i++) kpe[i] = qkv[t * NA + QL + KL + i];
        rope(kpe, (int)R, (int)p, theta);
        for (size_t i = 0; i < R; i++) {
            uint16_t v = mrt_f32_to_bf16(kpe[i]);
            memcpy(e + KL + 4 * (KL / 128) + 2 * i, &v, 2);
        }
    }

    /* C0: head gate from bf16 x, fp32 result (no rounding). */
    for (size_t t = 0; t < M; t++)
        for (size_t hh = 0; hh < IH; hh++) {
            double s = 0.0;
            for (size_t k = 0; k < H; k++) s += (double)(x_bf[t * H + k] * bf(io->W_gate[hh * H + k]));
            gate[t * IH + hh] = (float)s;
        }

    /* B1: indexer key: bf16 GEMM, LayerNorm, RoPE on k[0:R], power-of-two scale, cache write. */
    gemm_fp8(x8, sx, io->W_k, io->sW_k, M, ID, H, lut, row, kidx);
    for (size_t t = 0; t < M; t++) {
        const float *k = kidx + t * ID;
        float *y = row2;
        double mean = 0.0, var = 0.0;
        for (size_t i = 0; i < ID; i++) mean += k[i];
        mean /= (double)ID;
        for (size_t i = 0; i < ID; i++) var += ((double)k[i] - mean) * ((double)k[i] - mean);
        var /= (double)ID; /* biased, as LayerNorm */
        float mf = (float)mean, rs = (float)(1.0 / sqrt(var + (double)c->ln_eps));
        for (size_t i = 0; i < ID; i++) y[i] = (k[i] - mf) * rs * bf(io->ln_k_w[i]) + bf(io->ln_k_b[i]);
        size_t b = t / n_new, p = (size_t)io->pos[t];
        rope(y, (int)R, (int)p, theta);
        float amax = 0.0f;
        for (size_t i = 0; i < ID; i++) amax = fmaxf(amax, fabsf(y[i]));
        float ks = mrt_pow2_scale(amax);
        uint8_t *base = io->idx_cache + (size_t)io->block_table[b * BPR + p / BT] * IBLK;
        for (size_t i = 0; i < ID; i++) base[(p % BT) * ID + i] = mrt_f32_to_e4m3(y[i] / ks);
        memcpy(base + BT * ID + (p % BT) * 4, &ks, 4);
    }

    /* D0: main q_b; per head [nope | rope]; the rope part is roped from its bf16 values. */
    gemm_fp8(qr8, sqr, io->W_qb, io->sW_qb, M, NQB, QL, lut, row, q);
    for (size_t t = 0; t < M; t++)
        for (size_t hh = 0; hh < HEADS; hh++) {
            float *v = row2;
            for (size_t i = 0; i < R; i++) v[i] = q[t * NQB + hh * (NOPE + R) + NOPE + i];
            rope(v, (int)R, io->pos[t], theta);
            for (size_t i = 0; i < R; i++)
                io->qmla[(t * HEADS + hh) * (KL + R) + KL + i] = mrt_f32_to_bf16(v[i]);
        }

    /* D2: W_UK absorption of the bf16 q_nope. */
    for (size_t hh = 0; hh < HEADS; hh++)
        for (size_t t = 0; t < M; t++) {
            for (size_t cc = 0; cc < KL; cc++) acc[cc] = 0.0;
            for (size_t d = 0; d < NOPE; d++) {
                float qv = q[t * NQB + hh * (NOPE + R) + d];
                const uint16_t *w = io->W_uk + (hh * NOPE + d) * KL;
                for (size_t cc = 0; cc < KL; cc++) acc[cc] += (double)(qv * bf(w[cc]));
            }
            for (size_t cc = 0; cc < KL; cc++)
                io->qmla[(t * HEADS + hh) * (KL + R) + cc] = mrt_f32_to_bf16((float)acc[cc]);
        }

    /* D1: indexer q; per head [rope | nope]; power-of-two scale per (token, head), folded
     * into the head weight together with the gate and the softmax-style constants. */
    gemm_fp8(qr8, sqr, io->W_iq, io->sW_iq, M, NIQ, QL, lut, row, qi);
    const float inv_sqrt_dim = (float)(1.0 / sqrt((double)ID));
    const float inv_sqrt_heads = (float)(1.0 / sqrt((double)IH));
    for (size_t t = 0; t < M; t++)
        for (size_t hh = 0; hh < IH; hh++) {
            float *v = row2;
            for (size_t i = 0; i < ID; i++) v[i] = qi[t * NIQ + hh * ID + i];
            rope(v, (int)R, io->pos[t], theta);
            float amax = 0.0f;
            for (size_t i = 0; i < ID; i++) amax = fmaxf(amax, fabsf(v[i]));
            float qs = mrt_pow2_scale(amax);
            for (size_t i = 0; i < ID; i++) q8i[t * NIQ + hh * ID + i] = lut[mrt_f32_to_e4m3(v[i] / qs)];
            wI[t * IH + hh] = gate[t * IH + hh] * qs * inv_sqrt_dim * inv_sqrt_heads;
        }

    /* E1: logits over each request's keys (new keys included), read through block_table. */
    for (size_t b = 0; b < (size_t)io->shape.batch; b++)
        for (size_t j = 0; j < KV; j++) {
            const uint8_t *base = io->idx_cache + (size_t)io->block_table[b * BPR + j / BT] * IBLK;
            float *kd = row2, ks;
            for (size_t i = 0; i < ID; i++) kd[i] = lut[base[(j % BT) * ID + i]];
            memcpy(&ks, base + BT * ID + (j % BT) * 4, 4);
            for (size_t t = b * n_new; t < (b + 1) * n_new; t++) {
                if ((int32_t)j > io->pos[t]) {
                    io->logits[t * KV + j] = -INFINITY;
                    continue;
                }
                double l = 0.0;
                for (size_t hh = 0; hh < IH; hh++) {
                    const float *qv = q8i + t * NIQ + hh * ID;
                    double dot = 0.0;
                    for (size_t i = 0; i < ID; i++) dot += (double)(qv[i] * kd[i]);
                    double relu = dot < 0.0 ? 0.0 : dot; /* a NaN passes through */
                    l += (double)wI[t * IH + hh] * relu * (double)ks;
                }
                io->logits[t * KV + j] = (float)l;
            }
        }

    /* F1: top-k of the finite logits (ties: lower index first), logical indices in ascending
     * order, -1 padded. */
    for (size_t t = 0; t < M; t++) {
        size_t cnt = 0;
        for (size_t j = 0; j < KV; j++) {
            float v = io->logits[t * KV + j];
            if (isfinite(v)) {
                sel[cnt].v = v;
                sel[cnt].j = (int32_t)j;
                cnt++;
            }
        }
        qsort(sel, cnt, sizeof *sel, cmp_scored);
        size_t n = cnt < TOPK ? cnt : TOPK;
        qsort(sel, n, sizeof *sel, cmp_index);
        for (size_t i = 0; i < TOPK; i++) io->topk[t * TOPK + i] = i < n ? sel[i].j : -1;
    }
    st = MRT_OK;

done:
    free(x_bf);
    free(x8);
    free(sx);
    free(qkv);
    free(qr8);
    free(sqr);
    free(gate);
    free(kidx);
    free(q);
    free(qi);
    free(q8i);
    free(wI);
    free(row);
    free(row2);
    free(acc);
    free(sel);
    return st;
}
