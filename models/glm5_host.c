/* Host buffers of the GLM-5 prefix: allocation, seeded random contents, deep copies and
 * the name -> buffer map the executors bind graph tensors with.
 *
 * Every buffer is filled from its own PRNG stream, derived from (seed, buffer), so a
 * buffer's contents do not depend on the order buffers are filled in, and weights are the
 * same for two shapes with the same seed and config. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glm5_prefix.h"
#include "internal.h"
#include "numerics.h"

/* ---- sizes ------------------------------------------------------------------------------ */

typedef struct host_dims {
    size_t m, batch, kv, n; /* n: new tokens per request */
    size_t hidden, q_lora, kv_lora, nope, rope, heads, idx_heads, idx_dim, topk;
    size_t na, nqb, niq;     /* output rows of W_A, W_qb, W_iq */
    size_t bt, bpr, nblk;    /* block tokens, blocks per request, blocks in all */
    size_t entry, iblock;    /* MLA cache entry bytes, indexer cache block bytes */
} host_dims;

static host_dims dims_of(const glm5_config *c, const glm5_shape *s) {
    host_dims d;
    d.m = (size_t)s->m;
    d.batch = (size_t)s->batch;
    d.kv = (size_t)s->kv;
    d.n = d.m / d.batch;
    d.hidden = (size_t)c->hidden;
    d.q_lora = (size_t)c->q_lora;
    d.kv_lora = (size_t)c->kv_lora;
    d.nope = (size_t)c->qk_nope;
    d.rope = (size_t)c->qk_rope;
    d.heads = (size_t)c->heads;
    d.idx_heads = (size_t)c->idx_heads;
    d.idx_dim = (size_t)c->idx_dim;
    d.topk = (size_t)c->topk;
    d.na = (size_t)glm5_qkv_a_cols(c);
    d.nqb = d.heads * (d.nope + d.rope);
    d.niq = d.idx_heads * d.idx_dim;
    d.bt = (size_t)c->block_tokens;
    d.bpr = (size_t)glm5_blocks_per_req(s, c);
    d.nblk = d.batch * d.bpr;
    d.entry = (size_t)glm5_mla_entry_bytes(c);
    d.iblock = (size_t)glm5_idx_block_bytes(c);
    return d;
}

#define CDIV128(x) (((x) + 127) / 128)

/* Every buffer of glm5_host: X(field, bytes). The field name is also the graph tensor
 * name (glm5_host_buffer), so the two cannot drift apart. */
#define GLM5_HOST_FIELDS(X, d)                                                  \
    X(h, (d).m * (d).hidden * 2)                                                \
    X(res, (d).m * (d).hidden * 2)                                              \
    X(pos, (d).m * 4)                                                           \
    X(block_table, (d).batch * (d).bpr * 4)                                     \
    X(rope_cs, (d).kv * (d).rope * 4)                                           \
    X(w_in, (d).hidden * 2)                                                     \
    X(W_A, (d).na * (d).hidden)                                                 \
    X(sW_A, CDIV128((d).na) * ((d).hidden / 128) * 4)                           \
    X(w_qn, (d).q_lora * 2)                                                     \
    X(w_kvn, (d).kv_lora * 2)                                                   \
    X(W_gate, (d).idx_heads * (d).hidden * 2)                                   \
    X(W_k, (d).idx_dim * (d).hidden)                                            \
    X(sW_k, CDIV128((d).idx_dim) * ((d).hidden / 128) * 4)                      \
    X(ln_k_w, (d).idx_dim * 2)                                                  \
    X(ln_k_b, (d).idx_dim * 2)                                                  \
    X(W_qb, (d).nqb * (d).q_lora)                                               \
    X(sW_qb, CDIV128((d).nqb) * ((d).q_lora / 128) * 4)                         \
    X(W_iq, (d).niq * (d).q_lora)                                               \
    X(sW_iq, CDIV128((d).niq) * ((d).q_lora / 128) * 4)                         \
    X(W_uk, (d).heads * (d).nope * (d).kv_lora * 2)                             \
    X(mla_cache, (d).nblk * (d).bt * (d).entry)                                 \
    X(idx_cache, (d).nblk * (d).iblock)                                         \
    X(r_new, (d).m * (d).hidden * 2)                                            \
    X(qmla, (d).m * (d).heads * ((d).kv_lora + (d).rope) * 2)                   \
    X(logits, (d).m * (d).kv * 4)                                               \
    X(topk, (d).m * (d).topk * 4)

/* ---- PRNG: xoshiro256** seeded by splitmix64 ------------------------------------------- */

typedef struct rng {
    uint64_t s[4];
    int has_spare; /* Box-Muller makes normals in pairs */
    double spare;
} rng;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* One independent stream per (seed, buffer). */
static void rng_init(rng *r, uint64_t seed, uint64_t stream) {
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
    r->has_spare = 0;
    r->spare = 0.0;
}

static uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r) {
    uint64_t *s = r->s;
    uint64_t out = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return out;
}

/* Uniform in [-1, 1), 24 random bits. */
static float rng_sym(rng *r) { return (float)(int64_t)(rng_next(r) >> 40) * 0x1p-23f - 1.0f; }

/* Uniform in (0, 1], 53 random bits (never 0, so log() is finite). */
static double rng_open01(rng *r) { return (double)((rng_next(r) >> 11) + 1) * 0x1p-53; }

static float rng_normal(rng *r) {
    if (r->has_spare) {
        r->has_spare = 0;
        return (float)r->spare;
    }
    double rad = sqrt(-2.0 * log(rng_open01(r)));
    double ang = 6.283185307179586 * rng_open01(r);
    r->spare = rad * sin(ang);
    r->has_spare = 1;
    return (float)(rad * cos(ang));
}

static uint64_t rng_below(rng *r, uint64_t n) { return rng_next(r) % n; } /* bias ~n/2^64 */

enum {
    S_H = 1, S_RES, S_OUTLIERS, S_BLOCK_TABLE, S_W_IN, S_W_A, S_W_QN, S_W_KVN, S_W_GATE,
    S_W_K, S_LN_W, S_LN_B, S_W_QB, S_W_IQ, S_W_UK, S_MLA_CACHE, S_IDX_CACHE
};

/* ---- fillers ----------------------------------------------------------------------------- */

/* center + spread * U(-1, 1), stored bf16. */
static void fill_bf16_uniform(rng *r, uint16_t *dst, size_t n, float center, float spread) {
    for (size_t i = 0; i < n; i++) dst[i] = mrt_f32_to_bf16(center + spread * rng_sym(r));
}

/* A [N, K] FP8 weight as checkpoints store it: fp32 w ~ U(-1,1)/sqrt(K) (so a row dotted
 * with a unit-variance input stays O(1)), quantized with one scale per 128x128 block
 * (the last block row may be shorter). `tmp` holds 128 x K floats. */
static void fill_fp8_weight(rng *r, uint8_t *W, float *sW, size_t N, size_t K, float *tmp) {
    float bound = (float)(1.0 / sqrt((double)K));
    size_t kblocks = K / 128;
    for (size_t rb = 0; rb * 128 < N; rb++) {
        size_t rows = N - rb * 128 < 128 ? N - rb * 128 : 128;
        for (size_t i = 0; i < rows * K; i++) tmp[i] = bound * rng_sym(r);
        for (size_t kb = 0; kb < kblocks; kb++) {
            float amax = 0.0f;
            for (size_t i = 0; i < rows; i++)
                for (size_t k = kb * 128; k < kb * 128 + 128; k++) amax = fmaxf(amax, fabsf(tmp[i * K + k]));
            float s = mrt_block_scale(amax);
            sW[rb * kblocks + kb] = s;
            for (size_t i = 0; i < rows; i++)
                for (size_t k = kb * 128; k < kb * 128 + 128; k++)
                    W[(rb * 128 + i) * K + k] = mrt_f32_to_e4m3(tmp[i * K + k] / s);
        }
    }
}

/* Layer input and residual: N(0,1) plus a few outlier channels, as real hidden states
 * have; they make some 1x128 groups carry a large scale, which the quantization must
 * survive. */
static void fill_activations(rng *r, rng *ro, uint16_t *dst, const host_dims *d, float outlier) {
    size_t chan[8];
    size_t n_out = d->hidden / 1024;
    if (n_out < 1) n_out = 1;
    if (n_out > 8) n_out = 8;
    for (size_t i = 0; i < n_out; i++) chan[i] = (size_t)rng_below(ro, d->hidden);
    for (size_t t = 0; t < d->m; t++)
        for (size_t k = 0; k < d->hidden; k++) {
            float v = rng_normal(r);
            for (size_t i = 0; i < n_out; i++)
                if (chan[i] == k) v *= outlier;
            dst[t * d->hidden + k] = mrt_f32_to_bf16(v);
        }
}

/* MLA cache history: every slot holds a valid fp8_ds_mla entry of a random kv_n ~ N(0,1)
 * and k_pe ~ N(0,1); the new tokens' slots are poisoned so a missing write shows. */
static void fill_mla_cache(rng *r, glm5_host *h, const host_dims *d, float *tmp) {
    size_t groups = d->kv_lora / 128;
    for (size_t slot = 0; slot < d->nblk * d->bt; slot++) {
        uint8_t *e = h->mla_cache + slot * d->entry;
        for (size_t i = 0; i < d->kv_lora; i++) tmp[i] = rng_normal(r);
        for (size_t g = 0; g < groups; g++) {
            float amax = 0.0f;
            for (size_t i = g * 128; i < g * 128 + 128; i++) amax = fmaxf(amax, fabsf(tmp[i]));
            float s = mrt_block_scale(amax);
            for (size_t i = g * 128; i < g * 128 + 128; i++) e[i] = mrt_f32_to_e4m3(tmp[i] / s);
            memcpy(e + d->kv_lora + 4 * g, &s, 4);
        }
        for (size_t i = 0; i < d->rope; i++) {
            uint16_t v = mrt_f32_to_bf16(rng_normal(r));
            memcpy(e + d->kv_lora + 4 * groups + 2 * i, &v, 2);
        }
    }
    for (size_t b = 0; b < d->batch; b++)
        for (size_t p = d->kv - d->n; p < d->kv; p++) {
            size_t blk = (size_t)h->block_table[b * d->bpr + p / d->bt];
            memset(h->mla_cache + (blk * d->bt + p % d->bt) * d->entry, 0xFF, d->entry);
        }
}

/* Indexer cache history: LayerNorm'd keys look like N(0,1); power-of-two scale per token. */
static void fill_idx_cache(rng *r, glm5_host *h, const host_dims *d, float *tmp) {
    for (size_t blk = 0; blk < d->nblk; blk++) {
        uint8_t *base = h->idx_cache + blk * d->iblock;
        for (size_t o = 0; o < d->bt; o++) {
            float amax = 0.0f;
            for (size_t i = 0; i < d->idx_dim; i++) {
                tmp[i] = rng_normal(r);
                amax = fmaxf(amax, fabsf(tmp[i]));
            }
            float s = mrt_pow2_scale(amax);
            for (size_t i = 0; i < d->idx_dim; i++) base[o * d->idx_dim + i] = mrt_f32_to_e4m3(tmp[i] / s);
            memcpy(base + d->bt * d->idx_dim + o * 4, &s, 4);
        }
    }
    for (size_t b = 0; b < d->batch; b++)
        for (size_t p = d->kv - d->n; p < d->kv; p++) {
            size_t blk = (size_t)h->block_table[b * d->bpr + p / d->bt];
            uint8_t *base = h->idx_cache + blk * d->iblock;
            memset(base + (p % d->bt) * d->idx_dim, 0xFF, d->idx_dim);
            memset(base + d->bt * d->idx_dim + (p % d->bt) * 4, 0xFF, 4);
        }
}

/* ---- public ------------------------------------------------------------------------------ */

void glm5_host_free(glm5_host *h) {
    if (!h) return;
#define X_FREE(f, bytes) free(h->f);
    GLM5_HOST_FIELDS(X_FREE, *h)
#undef X_FREE
    memset(h, 0, sizeof *h);
}

/* Allocates every buffer of `h` (cfg and shape already set); frees all on failure. */
static mrt_status host_alloc(mrt_context *ctx, glm5_host *h) {
    host_dims d = dims_of(&h->cfg, &h->shape);
#define X_ALLOC(f, bytes)                                                                    \
    if (!(h->f = malloc(bytes))) { /* never 0 bytes: the shape was checked */             \
        size_t nb_ = (bytes);                                                                \
        glm5_host_free(h);                                                                   \
        return mrt_fail(ctx, MRT_ERR_NOMEM, "glm5 host: cannot allocate %zu bytes for %s", nb_, \
                        #f);                                                                 \
    }
    GLM5_HOST_FIELDS(X_ALLOC, d)
#undef X_ALLOC
    return MRT_OK;
}

mrt_status glm5_host_random(mrt_context *ctx, const glm5_config *c, const glm5_shape *s,
                            uint64_t seed, glm5_host *out) {
    if (!out) return mrt_fail(ctx, MRT_ERR_INVALID, "glm5_host_random: out is NULL");
    memset(out, 0, sizeof *out);
    mrt_status st = glm5_check_shape(ctx, c, s);
    if (st != MRT_OK) return st;

    glm5_host *h = out;
    h->cfg = *c;
    h->shape = *s;
    host_dims d = dims_of(c, s);
    h->num_blocks = (int)d.nblk;
    if ((st = host_alloc(ctx, h)) != MRT_OK) return st;

    /* Scratch: one 128-row strip of the widest FP8 weight, or one cache vector. */
    size_t kmax = d.hidden > d.q_lora ? d.hidden : d.q_lora;
    size_t vmax = d.kv_lora > d.idx_dim ? d.kv_lora : d.idx_dim;
    size_t tmp_n = 128 * kmax > vmax ? 128 * kmax : vmax;
    float *tmp = malloc(tmp_n * sizeof *tmp);
    if (!tmp) {
        glm5_host_free(h);
        return mrt_fail(ctx, MRT_ERR_NOMEM, "glm5 host: cannot allocate %zu bytes of scratch",
                        tmp_n * sizeof *tmp);
    }

    rng r, ro;
    rng_init(&r, seed, S_H);
    rng_init(&ro, seed, S_OUTLIERS);
    fill_activations(&r, &ro, h->h, &d, 8.0f);
    rng_init(&r, seed, S_RES);
    fill_activations(&r, &ro, h->res, &d, 16.0f);

    for (size_t t = 0; t < d.m; t++) h->pos[t] = (int32_t)(d.kv - d.n + t % d.n);

    /* Pages of both caches are scattered: a random permutation catches an executor that
     * assumes logical block == physical block. -DMRT_DIAG_BLOCKS_IN_ORDER (diagnostic builds,
     * timing only): logical block == physical block, so a trace shows what the scatter costs
     * the cache's readers. */
    rng_init(&r, seed, S_BLOCK_TABLE);
    for (size_t i = 0; i < d.nblk; i++) h->block_table[i] = (int32_t)i;
#ifdef MRT_DIAG_BLOCKS_IN_ORDER
    if (0)
#endif
    for (size_t i = d.nblk; i > 1; i--) {
        size_t j = (size_t)rng_below(&r, i);
        int32_t t = h->block_table[i - 1];
        h->block_table[i - 1] = h->block_table[j];
        h->block_table[j] = t;
    }

    size_t half = d.rope / 2;
    for (size_t p = 0; p < d.kv; p++)
        for (size_t i = 0; i < half; i++)
            mrt_rope_cos_sin((int)p, (int)i, (int)d.rope, c->rope_theta, &h->rope_cs[p * d.rope + i],
                             &h->rope_cs[p * d.rope + half + i]);

    rng_init(&r, seed, S_W_IN);
    fill_bf16_uniform(&r, h->w_in, d.hidden, 1.0f, 0.1f);
    rng_init(&r, seed, S_W_QN);
    fill_bf16_uniform(&r, h->w_qn, d.q_lora, 1.0f, 0.1f);
    rng_init(&r, seed, S_W_KVN);
    fill_bf16_uniform(&r, h->w_kvn, d.kv_lora, 1.0f, 0.1f);
    rng_init(&r, seed, S_LN_W);
    fill_bf16_uniform(&r, h->ln_k_w, d.idx_dim, 1.0f, 0.1f);
    rng_init(&r, seed, S_LN_B);
    fill_bf16_uniform(&r, h->ln_k_b, d.idx_dim, 0.0f, 0.05f);

    rng_init(&r, seed, S_W_A);
    fill_fp8_weight(&r, h->W_A, h->sW_A, d.na, d.hidden, tmp);
    rng_init(&r, seed, S_W_K);
    fill_fp8_weight(&r, h->W_k, h->sW_k, d.idx_dim, d.hidden, tmp);
    rng_init(&r, seed, S_W_QB);
    fill_fp8_weight(&r, h->W_qb, h->sW_qb, d.nqb, d.q_lora, tmp);
    rng_init(&r, seed, S_W_IQ);
    fill_fp8_weight(&r, h->W_iq, h->sW_iq, d.niq, d.q_lora, tmp);
    rng_init(&r, seed, S_W_GATE);
    fill_bf16_uniform(&r, h->W_gate, d.idx_heads * d.hidden, 0.0f, (float)(1.0 / sqrt((double)d.hidden)));
    rng_init(&r, seed, S_W_UK);
    fill_bf16_uniform(&r, h->W_uk, d.heads * d.nope * d.kv_lora, 0.0f, (float)(1.0 / sqrt((double)d.nope)));

    rng_init(&r, seed, S_MLA_CACHE);
    fill_mla_cache(&r, h, &d, tmp);
    rng_init(&r, seed, S_IDX_CACHE);
    fill_idx_cache(&r, h, &d, tmp);
    free(tmp);

    /* Outputs start as NaN bytes (topk as -1) so a missing write is caught. */
    memset(h->r_new, 0xFF, d.m * d.hidden * 2);
    memset(h->qmla, 0xFF, d.m * d.heads * (d.kv_lora + d.rope) * 2);
    memset(h->logits, 0xFF, d.m * d.kv * 4);
    memset(h->topk, 0xFF, d.m * d.topk * 4);
    return MRT_OK;
}

mrt_status glm5_host_clone(mrt_context *ctx, const glm5_host *src, glm5_host *dst) {
    if (!src || !dst)
        return mrt_fail(ctx, MRT_ERR_INVALID, "glm5_host_clone: %s is NULL", !src ? "src" : "dst");
    if (src == dst) return mrt_fail(ctx, MRT_ERR_INVALID, "glm5_host_clone: src and dst are the same");
#define X_CHECK(f, bytes)                                                                    \
    if (!src->f) return mrt_fail(ctx, MRT_ERR_INVALID, "glm5_host_clone: src buffer %s is NULL", #f);
    GLM5_HOST_FIELDS(X_CHECK, *src)
#undef X_CHECK
    mrt_status st = glm5_check_shape(ctx, &src->cfg, &src->shape);
    if (st != MRT_OK) return st;

    memset(dst, 0, sizeof *dst);
    dst->cfg = src->cfg;
    dst->shape = src->shape;
    dst->num_blocks = src->num_blocks;
    if ((st = host_alloc(ctx, dst)) != MRT_OK) return st;
    host_dims d = dims_of(&src->cfg, &src->shape);
#define X_COPY(f, bytes) memcpy(dst->f, src->f, bytes);
    GLM5_HOST_FIELDS(X_COPY, d)
#undef X_COPY
    return MRT_OK;
}

void *glm5_host_buffer(const glm5_host *h, const char *name) {
    if (!h || !name) return NULL;
#define X_NAME(f, bytes) \
    if (strcmp(name, #f) == 0) return (void *)h->f;
    GLM5_HOST_FIELDS(X_NAME, *h)
#undef X_NAME
    return NULL;
}
