/* Tests of the GLM-5 prefix host side: config and shape checks, the seeded host buffers,
 * and self-consistency of the naive reference (models/glm5_prefix_naive.c) at a reduced
 * but real shape with the full GLM-5 dimensions (m = 4, batch = 2, kv = 300: a partial
 * last cache block, scattered blocks, top-k wider than the context). Each check is a
 * property the reference could break: NaN leaks, missing cache writes, a wrong mask,
 * an unsorted top-k, RoPE or absorption applied to the wrong values, nondeterminism. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glm5_prefix.h"
#include "megartp.h"
#include "numerics.h"
#include "testing.h"

static const char *const NAMES[] = {
    "h",     "res",   "pos",    "block_table", "rope_cs",   "w_in",      "W_A",   "sW_A",  "w_qn",
    "w_kvn", "W_gate", "W_k",   "sW_k",        "ln_k_w",    "ln_k_b",    "W_qb",  "sW_qb", "W_iq",
    "sW_iq", "W_uk",  "mla_cache", "idx_cache", "r_new",    "qmla",      "logits", "topk"};
#define N_NAMES (sizeof NAMES / sizeof NAMES[0])

/* Byte sizes of the buffers, from the layouts documented in glm5_prefix.h. */
static size_t buf_bytes(const glm5_host *h, const char *name) {
    const glm5_config *c = &h->cfg;
    size_t m = (size_t)h->shape.m, kv = (size_t)h->shape.kv, H = (size_t)c->hidden;
    size_t na = (size_t)glm5_qkv_a_cols(c), nqb = (size_t)(c->heads * (c->qk_nope + c->qk_rope));
    size_t niq = (size_t)(c->idx_heads * c->idx_dim);
    size_t bpr = (size_t)glm5_blocks_per_req(&h->shape, c), nb = (size_t)h->num_blocks;
    struct {
        const char *n;
        size_t b;
    } t[] = {
        {"h", m * H * 2},
        {"res", m * H * 2},
        {"pos", m * 4},
        {"block_table", (size_t)h->shape.batch * bpr * 4},
        {"rope_cs", kv * (size_t)c->qk_rope * 4},
        {"w_in", H * 2},
        {"W_A", na * H},
        {"sW_A", (na + 127) / 128 * (H / 128) * 4},
        {"w_qn", (size_t)c->q_lora * 2},
        {"w_kvn", (size_t)c->kv_lora * 2},
        {"W_gate", (size_t)c->idx_heads * H * 2},
        {"W_k", (size_t)c->idx_dim * H},
        {"sW_k", ((size_t)c->idx_dim + 127) / 128 * (H / 128) * 4},
        {"ln_k_w", (size_t)c->idx_dim * 2},
        {"ln_k_b", (size_t)c->idx_dim * 2},
        {"W_qb", nqb * (size_t)c->q_lora},
        {"sW_qb", (nqb + 127) / 128 * ((size_t)c->q_lora / 128) * 4},
        {"W_iq", niq * (size_t)c->q_lora},
        {"sW_iq", (niq + 127) / 128 * ((size_t)c->q_lora / 128) * 4},
        {"W_uk", (size_t)(c->heads * c->qk_nope * c->kv_lora) * 2},
        {"mla_cache", nb * (size_t)c->block_tokens * (size_t)glm5_mla_entry_bytes(c)},
        {"idx_cache", nb * (size_t)glm5_idx_block_bytes(c)},
        {"r_new", m * H * 2},
        {"qmla", m * (size_t)(c->heads * (c->kv_lora + c->qk_rope)) * 2},
        {"logits", m * kv * 4},
        {"topk", m * (size_t)c->topk * 4},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].n, name) == 0) return t[i].b;
    return 0;
}

static int all_bytes(const void *p, size_t n, uint8_t v) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v) return 0;
    return 1;
}

static int bufs_equal(const glm5_host *a, const glm5_host *b, const char *name) {
    return memcmp(glm5_host_buffer(a, name), glm5_host_buffer(b, name), buf_bytes(a, name)) == 0;
}

static int e4m3_nan(uint8_t c) { return (c & 0x7F) == 0x7F; }

/* Physical byte offsets of logical token p of request b in the two caches. */
static size_t mla_slot(const glm5_host *h, int b, int p) {
    int bpr = glm5_blocks_per_req(&h->shape, &h->cfg), bt = h->cfg.block_tokens;
    size_t blk = (size_t)h->block_table[b * bpr + p / bt];
    return (blk * (size_t)bt + (size_t)(p % bt)) * (size_t)glm5_mla_entry_bytes(&h->cfg);
}
static const uint8_t *idx_codes(const glm5_host *h, int b, int p) {
    int bpr = glm5_blocks_per_req(&h->shape, &h->cfg), bt = h->cfg.block_tokens;
    size_t blk = (size_t)h->block_table[b * bpr + p / bt];
    return h->idx_cache + blk * (size_t)glm5_idx_block_bytes(&h->cfg) + (size_t)(p % bt) * (size_t)h->cfg.idx_dim;
}
static float idx_scale(const glm5_host *h, int b, int p) {
    int bpr = glm5_blocks_per_req(&h->shape, &h->cfg), bt = h->cfg.block_tokens;
    size_t blk = (size_t)h->block_table[b * bpr + p / bt];
    float s;
    memcpy(&s, h->idx_cache + blk * (size_t)glm5_idx_block_bytes(&h->cfg) +
                   (size_t)bt * (size_t)h->cfg.idx_dim + (size_t)(p % bt) * 4,
           4);
    return s;
}

static int is_new_pos(const glm5_host *h, int p) {
    int n = h->shape.m / h->shape.batch;
    return p >= h->shape.kv - n;
}

/* ---- config and shape ------------------------------------------------------------------ */

static void test_config(mrt_context *ctx) {
    glm5_config g = glm5_config_glm5(), d = glm5_config_dsv32();
    CHECK(g.hidden == 6144 && g.heads == 64 && g.q_lora == 2048 && g.kv_lora == 512 && g.qk_nope == 192 &&
              g.qk_rope == 64 && g.idx_heads == 32 && g.idx_dim == 128 && g.topk == 2048 &&
              g.block_tokens == 64 && g.rope_theta == 1e6 && g.rms_eps == 1e-5f && g.ln_eps == 1e-6f,
          "GLM-5 constants");
    CHECK(d.hidden == 7168 && d.heads == 128 && d.q_lora == 1536 && d.kv_lora == 512 && d.qk_nope == 128 &&
              d.qk_rope == 64 && d.idx_heads == 64 && d.idx_dim == 128 && d.topk == 2048 &&
              d.rms_eps == 1e-6f,
          "DeepSeek-V3.2 constants");
    CHECK(glm5_qkv_a_cols(&g) == 2624, "GLM-5 W_A rows %d, want 2624", glm5_qkv_a_cols(&g));
    CHECK(glm5_qkv_a_cols(&d) == 2112, "V3.2 W_A rows %d, want 2112", glm5_qkv_a_cols(&d));
    CHECK(glm5_mla_entry_bytes(&g) == 656, "MLA entry %d B, want 656", glm5_mla_entry_bytes(&g));
    CHECK(glm5_idx_block_bytes(&g) == 8448, "indexer block %d B, want 8448", glm5_idx_block_bytes(&g));
    const int kvs[][2] = {{8192, 128}, {300, 5}, {64, 1}, {65, 2}, {1, 1}};
    for (size_t i = 0; i < sizeof kvs / sizeof kvs[0]; i++) {
        glm5_shape s = {2, 1, kvs[i][0]};
        CHECK(glm5_blocks_per_req(&s, &g) == kvs[i][1], "kv %d: %d blocks, want %d", kvs[i][0],
              glm5_blocks_per_req(&s, &g), kvs[i][1]);
    }

    glm5_shape ok = {16, 2, 8192};
    CHECK(glm5_check_shape(ctx, &g, &ok) == MRT_OK, "16x8192 rejected: %s", mrt_last_error(ctx));
    CHECK(glm5_check_shape(ctx, &d, &ok) == MRT_OK, "V3.2 16x8192 rejected: %s", mrt_last_error(ctx));
    glm5_shape edge = {8, 2, 4}; /* kv exactly the new tokens: no history */
    CHECK(glm5_check_shape(ctx, &g, &edge) == MRT_OK, "kv = n rejected: %s", mrt_last_error(ctx));

    struct {
        glm5_shape s;
        const char *needle;
    } bad[] = {
        {{0, 1, 10}, "m = 0"},
        {{4, 0, 10}, "batch = 0"},
        {{5, 2, 10}, "m = 5"},
        {{8, 2, 3}, "context length kv = 3 is shorter than the 4 new tokens of each request"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mrt_status st = glm5_check_shape(ctx, &g, &bad[i].s);
        CHECK(st == MRT_ERR_SHAPE && strstr(mrt_last_error(ctx), bad[i].needle),
              "shape %d/%d/%d: status %d, message '%s', want it to name '%s'", bad[i].s.m, bad[i].s.batch,
              bad[i].s.kv, (int)st, mrt_last_error(ctx), bad[i].needle);
    }
    glm5_config c1 = g;
    c1.hidden = 6100;
    CHECK(glm5_check_shape(ctx, &c1, &ok) == MRT_ERR_SHAPE && strstr(mrt_last_error(ctx), "hidden = 6100"),
          "hidden 6100: '%s'", mrt_last_error(ctx));
    c1 = g;
    c1.q_lora = 2000;
    CHECK(glm5_check_shape(ctx, &c1, &ok) == MRT_ERR_SHAPE && strstr(mrt_last_error(ctx), "q_lora = 2000"),
          "q_lora 2000: '%s'", mrt_last_error(ctx));
    c1 = g;
    c1.kv_lora = 500;
    CHECK(glm5_check_shape(ctx, &c1, &ok) == MRT_ERR_SHAPE && strstr(mrt_last_error(ctx), "kv_lora = 500"),
          "kv_lora 500: '%s'", mrt_last_error(ctx));
    CHECK(glm5_check_shape(ctx, NULL, &ok) == MRT_ERR_INVALID, "NULL config accepted");
}

/* ---- host buffers ---------------------------------------------------------------------- */

static void test_host(const glm5_host *h) {
    const glm5_config *c = &h->cfg;
    int m = h->shape.m, kv = h->shape.kv, n = m / h->shape.batch;
    int bpr = glm5_blocks_per_req(&h->shape, c);
    CHECK(h->num_blocks == h->shape.batch * bpr, "num_blocks %d", h->num_blocks);

    for (size_t i = 0; i < N_NAMES; i++)
        CHECK(glm5_host_buffer(h, NAMES[i]) != NULL, "glm5_host_buffer(%s) is NULL", NAMES[i]);
    CHECK(glm5_host_buffer(h, "h") == (void *)h->h && glm5_host_buffer(h, "W_qb") == (void *)h->W_qb &&
              glm5_host_buffer(h, "idx_cache") == (void *)h->idx_cache &&
              glm5_host_buffer(h, "topk") == (void *)h->topk,
          "glm5_host_buffer maps names to the wrong buffers");
    CHECK(glm5_host_buffer(h, "x8") == NULL && glm5_host_buffer(h, "nope") == NULL &&
              glm5_host_buffer(h, "") == NULL,
          "workspaces and unknown names must have no host buffer");

    for (int t = 0; t < m; t++)
        CHECK(h->pos[t] == kv - n + t % n, "pos[%d] = %d, want %d", t, h->pos[t], kv - n + t % n);
    int *seen = calloc((size_t)h->num_blocks, sizeof *seen), perm = 1, ident = 1;
    for (int i = 0; i < h->num_blocks; i++) {
        int b = h->block_table[i];
        if (b < 0 || b >= h->num_blocks || seen[b]++) perm = 0;
        if (b != i) ident = 0;
    }
    free(seen);
    CHECK(perm, "block_table is not a permutation of 0..%d", h->num_blocks - 1);
    if (h->num_blocks >= 5) /* fewer blocks may be the identity by chance */
        CHECK(!ident, "block_table is the identity: scattered pages are not exercised");

    int bad_cs = 0;
    for (int p = 0; p < kv; p += 37)
        for (int i = 0; i < c->qk_rope / 2; i++) {
            float cs, sn;
            mrt_rope_cos_sin(p, i, c->qk_rope, c->rope_theta, &cs, &sn);
            if (h->rope_cs[p * c->qk_rope + i] != cs || h->rope_cs[p * c->qk_rope + c->qk_rope / 2 + i] != sn)
                bad_cs++;
        }
    CHECK(bad_cs == 0, "%d rope_cs entries differ from mrt_rope_cos_sin", bad_cs);

    const char *outs[] = {"r_new", "qmla", "logits", "topk"};
    for (size_t i = 0; i < 4; i++)
        CHECK(all_bytes(glm5_host_buffer(h, outs[i]), buf_bytes(h, outs[i]), 0xFF), "output %s not poisoned",
              outs[i]);

    /* Inputs are never zero and have realistic size. */
    double ss = 0;
    size_t nz = 0, hn = (size_t)m * (size_t)c->hidden;
    for (size_t i = 0; i < hn; i++) {
        float v = mrt_bf16_to_f32(h->h[i]);
        ss += (double)v * v;
        nz += v != 0.0f;
    }
    CHECK(nz > hn * 99 / 100 && ss / (double)hn > 0.5 && ss / (double)hn < 10, "h: %zu nonzero, mean square %g",
          nz, ss / (double)hn);

    /* FP8 weights: no NaN codes, and every 128x128 block reaches the largest code (its
     * scale is amax / 448). Checked on the last block row of W_A, the 64-row one. */
    size_t na = (size_t)glm5_qkv_a_cols(c), H = (size_t)c->hidden;
    int nan_codes = 0, blocks_without_max = 0;
    for (size_t i = 0; i < na * H; i++) nan_codes += e4m3_nan(h->W_A[i]);
    size_t last = (na - 1) / 128;
    for (size_t kb = 0; kb < H / 128; kb++) {
        int hit = 0;
        for (size_t r = last * 128; r < na; r++)
            for (size_t k = kb * 128; k < kb * 128 + 128; k++) hit |= (h->W_A[r * H + k] & 0x7F) == 0x7E;
        blocks_without_max += !hit;
        float s = h->sW_A[last * (H / 128) + kb];
        if (!(s > 0 && s < 1e-3f)) blocks_without_max++;
    }
    CHECK(nan_codes == 0, "W_A has %d NaN codes", nan_codes);
    CHECK(blocks_without_max == 0, "%d blocks of W_A's last block row lack a 448 code or a sane scale",
          blocks_without_max);

    /* Caches: history valid everywhere, the new tokens' slots poisoned. */
    int entry = glm5_mla_entry_bytes(c), bad_hist = 0, bad_new = 0;
    for (int b = 0; b < h->shape.batch; b++)
        for (int p = 0; p < bpr * c->block_tokens; p++) {
            const uint8_t *e = h->mla_cache + mla_slot(h, b, p);
            const uint8_t *k = idx_codes(h, b, p);
            float ks = idx_scale(h, b, p);
            if (p < kv && is_new_pos(h, p)) {
                if (!all_bytes(e, (size_t)entry, 0xFF) || !all_bytes(k, (size_t)c->idx_dim, 0xFF) || !isnan(ks))
                    bad_new++;
                continue;
            }
            int bad = !(ks > 0 && isfinite(ks));
            for (int i = 0; i < c->kv_lora; i++) bad |= e4m3_nan(e[i]);
            for (int i = 0; i < c->idx_dim; i++) bad |= e4m3_nan(k[i]);
            for (int g = 0; g < c->kv_lora / 128; g++) {
                float s;
                memcpy(&s, e + c->kv_lora + 4 * g, 4);
                bad |= !(s > 0 && isfinite(s));
            }
            bad_hist += bad;
        }
    CHECK(bad_new == 0, "%d new-token cache slots are not poisoned", bad_new);
    CHECK(bad_hist == 0, "%d history cache slots hold invalid entries", bad_hist);
}

/* ---- independent re-derivations ------------------------------------------------------------
 * Parts of the prefix recomputed one token at a time from NUMERICS.md, with RoPE taken from
 * the host's rope_cs table (the naive computes cos/sin itself), so a wrong pairing, a wrong
 * row of a weight, a missing relu or a misplaced scale in the reference shows up here. */

static void quant128(const float *x, size_t n, float *q, float *s) {
    for (size_t g = 0; g < n / 128; g++) {
        float amax = 0;
        for (size_t i = 0; i < 128; i++) amax = fmaxf(amax, fabsf(x[g * 128 + i]));
        s[g] = mrt_block_scale(amax);
        for (size_t i = 0; i < 128; i++) q[g * 128 + i] = mrt_e4m3_to_f32(mrt_f32_to_e4m3(x[g * 128 + i] / s[g]));
    }
}

static float lut8[256]; /* decoded e4m3 codes, filled in main */

static float fp8_dot_row(const float *a, const float *sa, const uint8_t *w, const float *sw, size_t K) {
    double acc = 0;
    for (size_t kb = 0; kb < K / 128; kb++) {
        double d = 0;
        for (size_t k = kb * 128; k < kb * 128 + 128; k++) d += (double)(a[k] * lut8[w[k]]);
        acc += d * (double)sa[kb] * (double)sw[kb];
    }
    return mrt_round_bf16((float)acc);
}

/* The front of the prefix for token t: A0 (x as bf16 and its 1x128 codes) and B0's q_c
 * rows -> q_a RMSNorm -> qr8. Buffers sized H, H, H/128, QL, QL/128 (+ QL scratch). */
typedef struct front {
    float *x_bf, *x8, *sx, *qr8, *sqr, *tmp;
} front;

static int front_alloc(front *f, const glm5_config *c) {
    size_t H = (size_t)c->hidden, QL = (size_t)c->q_lora;
    f->x_bf = malloc(H * sizeof(float));
    f->x8 = malloc(H * sizeof(float));
    f->sx = malloc(H / 128 * sizeof(float));
    f->qr8 = malloc(QL * sizeof(float));
    f->sqr = malloc(QL / 128 * sizeof(float));
    f->tmp = malloc((H > QL ? H : QL) * sizeof(float));
    return f->x_bf && f->x8 && f->sx && f->qr8 && f->sqr && f->tmp;
}

static void front_free(front *f) {
    free(f->x_bf);
    free(f->x8);
    free(f->sx);
    free(f->qr8);
    free(f->sqr);
    free(f->tmp);
}

static void front_token(const glm5_host *h, int t, front *f) {
    const glm5_config *c = &h->cfg;
    size_t H = (size_t)c->hidden, QL = (size_t)c->q_lora;
    float *x = f->tmp;
    double ss = 0;
    for (size_t k = 0; k < H; k++) {
        x[k] = mrt_round_bf16(mrt_bf16_to_f32(h->h[(size_t)t * H + k]) + mrt_bf16_to_f32(h->res[(size_t)t * H + k]));
        ss += (double)x[k] * x[k];
    }
    float rs = (float)(1.0 / sqrt((double)((float)(ss / (double)H) + c->rms_eps)));
    for (size_t k = 0; k < H; k++) {
        x[k] = mrt_bf16_to_f32(h->w_in[k]) * x[k] * rs;
        f->x_bf[k] = mrt_round_bf16(x[k]);
    }
    quant128(x, H, f->x8, f->sx);
    float *qc = f->tmp; /* x is no longer needed */
    for (size_t r = 0; r < QL; r++)
        qc[r] = fp8_dot_row(f->x8, f->sx, h->W_A + r * H, h->sW_A + (r / 128) * (H / 128), H);
    ss = 0;
    for (size_t k = 0; k < QL; k++) ss += (double)qc[k] * qc[k];
    rs = (float)(1.0 / sqrt((double)((float)(ss / (double)QL) + c->rms_eps)));
    for (size_t k = 0; k < QL; k++) qc[k] = mrt_bf16_to_f32(h->w_qn[k]) * qc[k] * rs;
    quant128(qc, QL, f->qr8, f->sqr);
}

/* D0 rows of head hh -> RoPE with the host's rope_cs table (the naive computes cos/sin
 * itself) and D2 on a sample of columns; must agree bit for bit with qmla. */
static void check_head(const glm5_host *h, int hh) {
    const glm5_config *c = &h->cfg;
    size_t QL = (size_t)c->q_lora, KL = (size_t)c->kv_lora;
    size_t NOPE = (size_t)c->qk_nope, R = (size_t)c->qk_rope, HD = NOPE + R;
    front f;
    float *q = malloc(HD * sizeof *q);
    if (!CHECK(front_alloc(&f, c) && q, "out of memory")) return;
    int rope_exact = 0, rope_total = 0, nope_exact = 0, nope_total = 0;
    float worst = 0;
    for (int t = 0; t < h->shape.m; t++) {
        front_token(h, t, &f);
        for (size_t i = 0; i < HD; i++) {
            size_t r = (size_t)hh * HD + i;
            q[i] = fp8_dot_row(f.qr8, f.sqr, h->W_qb + r * QL, h->sW_qb + (r / 128) * (QL / 128), QL);
        }
        const float *cs = h->rope_cs + (size_t)h->pos[t] * R;
        const uint16_t *out = h->qmla + ((size_t)t * (size_t)c->heads + (size_t)hh) * (KL + R);
        for (size_t i = 0; i < R / 2; i++) {
            float a = q[NOPE + 2 * i], b = q[NOPE + 2 * i + 1];
            mrt_rope_pair(&a, &b, cs[i], cs[R / 2 + i]);
            float want[2] = {mrt_round_bf16(a), mrt_round_bf16(b)};
            for (int j = 0; j < 2; j++) {
                float got = mrt_bf16_to_f32(out[KL + 2 * i + (size_t)j]);
                rope_exact += got == want[j];
                rope_total++;
                worst = fmaxf(worst, fabsf(got - want[j]));
            }
        }
        for (size_t cc = 0; cc < KL; cc += 7) { /* a sample of the absorbed columns */
            double acc = 0;
            for (size_t d = 0; d < NOPE; d++)
                acc += (double)(q[d] * mrt_bf16_to_f32(h->W_uk[((size_t)hh * NOPE + d) * KL + cc]));
            nope_exact += mrt_bf16_to_f32(out[cc]) == mrt_round_bf16((float)acc);
            nope_total++;
        }
    }
    CHECK(rope_exact == rope_total, "head %d: %d of %d q_pe values differ from the re-derivation (max |diff| %g)",
          hh, rope_total - rope_exact, rope_total, (double)worst);
    CHECK(nope_exact == nope_total, "head %d: %d of %d absorbed q_nope values differ", hh, nope_total - nope_exact,
          nope_total);
    front_free(&f);
    free(q);
}

/* C0 + D1 + E1 for token t, re-derived: the head gate, the indexer query (RoPE from
 * rope_cs), its power-of-two codes and the folded head weight, then the logits of every
 * key of t's request read back from the indexer cache (history and new keys alike).
 * The sums run in the order NUMERICS.md writes them; agreement within 1e-6 relative. */
static void check_logits(const glm5_host *h, int t) {
    const glm5_config *c = &h->cfg;
    size_t H = (size_t)c->hidden, QL = (size_t)c->q_lora, IH = (size_t)c->idx_heads, ID = (size_t)c->idx_dim;
    size_t R = (size_t)c->qk_rope;
    front f;
    float *q8 = malloc(IH * ID * sizeof *q8), *wI = malloc(IH * sizeof *wI), *v = malloc(ID * sizeof *v);
    if (!CHECK(front_alloc(&f, c) && q8 && wI && v, "out of memory")) return;
    front_token(h, t, &f);
    const float *cs = h->rope_cs + (size_t)h->pos[t] * R;
    for (size_t hh = 0; hh < IH; hh++) {
        double g = 0;
        for (size_t k = 0; k < H; k++) g += (double)(f.x_bf[k] * mrt_bf16_to_f32(h->W_gate[hh * H + k]));
        float amax = 0;
        for (size_t i = 0; i < ID; i++) {
            size_t r = hh * ID + i;
            v[i] = fp8_dot_row(f.qr8, f.sqr, h->W_iq + r * QL, h->sW_iq + (r / 128) * (QL / 128), QL);
        }
        for (size_t i = 0; i < R / 2; i++) mrt_rope_pair(&v[2 * i], &v[2 * i + 1], cs[i], cs[R / 2 + i]);
        for (size_t i = 0; i < ID; i++) amax = fmaxf(amax, fabsf(v[i]));
        float qs = mrt_pow2_scale(amax);
        for (size_t i = 0; i < ID; i++) q8[hh * ID + i] = lut8[mrt_f32_to_e4m3(v[i] / qs)];
        wI[hh] = (float)g * qs * (float)(1.0 / sqrt((double)ID)) * (float)(1.0 / sqrt((double)IH));
    }
    int b = t / (h->shape.m / h->shape.batch), bad = 0, worst_j = -1;
    double worst = 0;
    for (int j = 0; j <= h->pos[t]; j++) {
        const uint8_t *k8 = idx_codes(h, b, j);
        float ks = idx_scale(h, b, j);
        double l = 0;
        for (size_t hh = 0; hh < IH; hh++) {
            double dot = 0;
            for (size_t i = 0; i < ID; i++) dot += (double)(q8[hh * ID + i] * lut8[k8[i]]);
            l += (double)wI[hh] * (dot > 0 ? dot : 0) * (double)ks;
        }
        float got = h->logits[(size_t)t * (size_t)h->shape.kv + (size_t)j];
        double err = fabs((double)got - (float)l) / fmax(fabs(l), 1e-6);
        if (!(err <= 1e-6)) bad++;
        if (!(err <= worst)) worst = err, worst_j = j;
    }
    CHECK(bad == 0, "token %d: %d of %d logits differ from the re-derivation (worst rel %g at j = %d)", t, bad,
          h->pos[t] + 1, worst, worst_j);
    front_free(&f);
    free(q8);
    free(wI);
    free(v);
}

/* The new cache entries of token t, re-derived: B0's kv_c and k_pe rows -> RMSNorm ->
 * per-128 codes and scales, RoPE'd bf16 k_pe (the MLA entry); B1 -> LayerNorm -> RoPE ->
 * power-of-two scale and codes (the indexer key). Must agree byte for byte. */
static void check_new_cache(const glm5_host *h, int t) {
    const glm5_config *c = &h->cfg;
    size_t H = (size_t)c->hidden, QL = (size_t)c->q_lora, KL = (size_t)c->kv_lora, R = (size_t)c->qk_rope;
    size_t ID = (size_t)c->idx_dim, ENTRY = (size_t)glm5_mla_entry_bytes(c);
    front f;
    uint8_t *want = malloc(ENTRY);
    float *v = malloc((KL > ID ? KL : ID) * sizeof *v), *kpe = malloc(R * sizeof *kpe);
    if (!CHECK(front_alloc(&f, c) && want && v && kpe, "out of memory")) return;
    front_token(h, t, &f);
    const float *cs = h->rope_cs + (size_t)h->pos[t] * R;
    int b = t / (h->shape.m / h->shape.batch), p = h->pos[t];

    double ss = 0;
    for (size_t i = 0; i < KL + R; i++) {
        size_t r = QL + i;
        float y = fp8_dot_row(f.x8, f.sx, h->W_A + r * H, h->sW_A + (r / 128) * (H / 128), H);
        if (i < KL) {
            v[i] = y;
            ss += (double)y * y;
        } else {
            kpe[i - KL] = y;
        }
    }
    float rs = (float)(1.0 / sqrt((double)((float)(ss / (double)KL) + c->rms_eps)));
    for (size_t i = 0; i < KL; i++) v[i] = mrt_bf16_to_f32(h->w_kvn[i]) * v[i] * rs;
    for (size_t g = 0; g < KL / 128; g++) {
        float amax = 0;
        for (size_t i = g * 128; i < g * 128 + 128; i++) amax = fmaxf(amax, fabsf(v[i]));
        float sc = mrt_block_scale(amax);
        for (size_t i = g * 128; i < g * 128 + 128; i++) want[i] = mrt_f32_to_e4m3(v[i] / sc);
        memcpy(want + KL + 4 * g, &sc, 4);
    }
    for (size_t i = 0; i < R / 2; i++) mrt_rope_pair(&kpe[2 * i], &kpe[2 * i + 1], cs[i], cs[R / 2 + i]);
    for (size_t i = 0; i < R; i++) {
        uint16_t bits = mrt_f32_to_bf16(kpe[i]);
        memcpy(want + KL + 4 * (KL / 128) + 2 * i, &bits, 2);
    }
    const uint8_t *got = h->mla_cache + mla_slot(h, b, p);
    int diff = 0;
    for (size_t i = 0; i < ENTRY; i++) diff += got[i] != want[i];
    CHECK(diff == 0, "token %d: %d of %zu bytes of its MLA cache entry differ from the re-derivation", t, diff,
          ENTRY);

    double mean = 0, var = 0;
    for (size_t i = 0; i < ID; i++) {
        v[i] = fp8_dot_row(f.x8, f.sx, h->W_k + i * H, h->sW_k + (i / 128) * (H / 128), H);
        mean += v[i];
    }
    mean /= (double)ID;
    for (size_t i = 0; i < ID; i++) var += ((double)v[i] - mean) * ((double)v[i] - mean);
    float mf = (float)mean, lrs = (float)(1.0 / sqrt(var / (double)ID + (double)c->ln_eps));
    float amax = 0;
    for (size_t i = 0; i < ID; i++)
        v[i] = (v[i] - mf) * lrs * mrt_bf16_to_f32(h->ln_k_w[i]) + mrt_bf16_to_f32(h->ln_k_b[i]);
    for (size_t i = 0; i < R / 2; i++) mrt_rope_pair(&v[2 * i], &v[2 * i + 1], cs[i], cs[R / 2 + i]);
    for (size_t i = 0; i < ID; i++) amax = fmaxf(amax, fabsf(v[i]));
    float ks = mrt_pow2_scale(amax);
    const uint8_t *k8 = idx_codes(h, b, p);
    diff = 0;
    for (size_t i = 0; i < ID; i++) diff += k8[i] != mrt_f32_to_e4m3(v[i] / ks);
    CHECK(diff == 0 && idx_scale(h, b, p) == ks, "token %d: %d of %zu indexer key codes differ, scale %g vs %g", t,
          diff, ID, (double)idx_scale(h, b, p), (double)ks);
    front_free(&f);
    free(want);
    free(v);
    free(kpe);
}

/* ---- the naive run ---------------------------------------------------------------------- */

/* Properties of one naive run; `before` is a clone of the inputs taken before the run. */
static void check_run(const glm5_host *h, const glm5_host *before) {
    const glm5_config *c = &h->cfg;
    int m = h->shape.m, kv = h->shape.kv, H = c->hidden;

    int bad = 0;
    for (int i = 0; i < m * H; i++)
        bad += h->r_new[i] !=
               mrt_f32_to_bf16(mrt_bf16_to_f32(h->h[i]) + mrt_bf16_to_f32(h->res[i]));
    CHECK(bad == 0, "%d residual values are not bf16(h + res)", bad);

    size_t nq = (size_t)m * (size_t)(c->heads * (c->kv_lora + c->qk_rope));
    size_t nan_q = 0, zero_q = 0;
    for (size_t i = 0; i < nq; i++) {
        float v = mrt_bf16_to_f32(h->qmla[i]);
        nan_q += !isfinite(v);
        zero_q += v == 0.0f;
    }
    CHECK(nan_q == 0, "qmla has %zu non-finite values", nan_q);
    CHECK(zero_q < nq / 100, "qmla has %zu zeros of %zu", zero_q, nq);

    /* Logits: finite exactly where j <= pos[t], -inf beyond, never NaN. */
    int mask_bad = 0, nonzero = 0;
    for (int t = 0; t < m; t++)
        for (int j = 0; j < kv; j++) {
            float v = h->logits[(size_t)t * (size_t)kv + (size_t)j];
            if (j <= h->pos[t] ? !isfinite(v) : !(isinf(v) && v < 0)) mask_bad++;
            nonzero += isfinite(v) && v != 0.0f;
        }
    CHECK(mask_bad == 0, "%d logits break the causal mask (finite iff j <= pos[t])", mask_bad);
    CHECK(nonzero > m * (kv - m) / 2, "only %d logits are nonzero", nonzero);

    /* Top-k: valid distinct indices in ascending order, -1 padded, and no unselected finite
     * logit beats a selected one (nor equals it at a lower index). */
    int topk_bad = 0;
    char *used = calloc((size_t)kv, 1);
    for (int t = 0; t < m; t++) {
        const int32_t *ix = h->topk + (size_t)t * (size_t)c->topk;
        const float *lg = h->logits + (size_t)t * (size_t)kv;
        int want = h->pos[t] + 1 < c->topk ? h->pos[t] + 1 : c->topk;
        memset(used, 0, (size_t)kv);
        float min_sel = INFINITY;
        for (int i = 0; i < c->topk; i++) {
            int j = ix[i];
            if (i >= want) {
                topk_bad += j != -1;
                continue;
            }
            if (j < 0 || j > h->pos[t] || used[j]) {
                topk_bad++;
                continue;
            }
            used[j] = 1;
            min_sel = fminf(min_sel, lg[j]);
            if (i > 0 && ix[i - 1] >= j) topk_bad++;
        }
        int last_min = -1; /* the highest selected index holding the smallest selected logit */
        for (int j = 0; j <= h->pos[t]; j++)
            if (used[j] && lg[j] == min_sel) last_min = j;
        for (int j = 0; j <= h->pos[t]; j++)
            if (!used[j] && (lg[j] > min_sel || (lg[j] == min_sel && j < last_min))) topk_bad++;
    }
    free(used);
    CHECK(topk_bad == 0, "%d top-k entries are invalid, out of index order or not the largest", topk_bad);

    /* Caches: the new slots now hold valid entries with the right statistics; every other
     * byte is as before. */
    int bpr = glm5_blocks_per_req(&h->shape, c), n = m / h->shape.batch;
    int bad_mla = 0, bad_idx = 0;
    for (int t = 0; t < m; t++) {
        int b = t / n, p = h->pos[t], mla0 = bad_mla, idx0 = bad_idx;
        const uint8_t *e = h->mla_cache + mla_slot(h, b, p);
        double ss = 0;
        for (int g = 0; g < c->kv_lora / 128; g++) {
            float s;
            memcpy(&s, e + c->kv_lora + 4 * g, 4);
            int has_max = 0;
            for (int i = g * 128; i < g * 128 + 128; i++) {
                bad_mla += e4m3_nan(e[i]);
                has_max |= (e[i] & 0x7F) == 0x7E;
                double v = (double)mrt_e4m3_to_f32(e[i]) * s;
                ss += v * v;
            }
            bad_mla += !(s > 0 && isfinite(s)) + !has_max; /* amax maps to 448 */
        }
        double rms = sqrt(ss / c->kv_lora); /* RMSNorm output with weights 1 +- 0.1 */
        bad_mla += !(rms > 0.85 && rms < 1.15);
        for (int i = 0; i < c->qk_rope; i++) {
            uint16_t v;
            memcpy(&v, e + c->kv_lora + 4 * (c->kv_lora / 128) + 2 * i, 2);
            bad_mla += !isfinite(mrt_bf16_to_f32(v));
        }

        const uint8_t *k = idx_codes(h, b, p);
        float ks = idx_scale(h, b, p);
        float amax = 0;
        ss = 0;
        for (int i = 0; i < c->idx_dim; i++) {
            bad_idx += e4m3_nan(k[i]);
            float v = mrt_e4m3_to_f32(k[i]);
            amax = fmaxf(amax, fabsf(v));
            ss += (double)v * ks * v * ks;
        }
        int ex;
        bad_idx += !(ks > 0 && frexpf(ks, &ex) == 0.5f); /* a power of two */
        bad_idx += !(amax > 224.0f && amax <= 448.0f);     /* the smallest such power */
        double ms = ss / c->idx_dim;                     /* LayerNorm: unit variance, RoPE keeps norms */
        bad_idx += !(ms > 0.75 && ms < 1.3);
        if (bad_mla != mla0 || bad_idx != idx0)
            CHECK(0, "token %d: new MLA entry rms %.3f, indexer key mean square %.3f scale %g", t, rms, ms,
                  (double)ks);
    }
    CHECK(bad_mla == 0, "%d problems in the new MLA cache entries", bad_mla);
    CHECK(bad_idx == 0, "%d problems in the new indexer cache keys", bad_idx);

    int entry = glm5_mla_entry_bytes(c), changed = 0;
    for (int b = 0; b < h->shape.batch; b++)
        for (int p = 0; p < bpr * c->block_tokens; p++) {
            if (p < kv && is_new_pos(h, p)) continue;
            changed += memcmp(h->mla_cache + mla_slot(h, b, p), before->mla_cache + mla_slot(h, b, p),
                              (size_t)entry) != 0;
            changed += memcmp(idx_codes(h, b, p), idx_codes(before, b, p), (size_t)c->idx_dim) != 0;
            changed += idx_scale(h, b, p) != idx_scale(before, b, p);
        }
    CHECK(changed == 0, "%d history cache slots were modified", changed);

    const char *inputs[] = {"h", "res", "pos", "block_table", "rope_cs", "W_A", "W_qb", "W_uk"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        CHECK(bufs_equal(h, before, inputs[i]), "the naive modified input %s", inputs[i]);
}

static double secs(void) {
    return (double)clock() / CLOCKS_PER_SEC;
}

int main(void) {
    mrt_context *ctx = mrt_context_new();
    for (int i = 0; i < 256; i++) lut8[i] = mrt_e4m3_to_f32((uint8_t)i);
    test_config(ctx);

    glm5_config cfg = glm5_config_glm5();
    glm5_shape shp = {4, 2, 300};
    glm5_host io, before, again, other, clone;
    double t0 = secs();
    if (!CHECK(glm5_host_random(ctx, &cfg, &shp, 1, &io) == MRT_OK, "host_random: %s", mrt_last_error(ctx)))
        TEST_MAIN_END();
    double t1 = secs();
    test_host(&io);

    /* Clones are deep and independent. */
    CHECK(glm5_host_clone(ctx, &io, &before) == MRT_OK, "clone: %s", mrt_last_error(ctx));
    int same = 1, distinct = 1;
    for (size_t i = 0; i < N_NAMES; i++) {
        same &= bufs_equal(&io, &before, NAMES[i]);
        distinct &= glm5_host_buffer(&io, NAMES[i]) != glm5_host_buffer(&before, NAMES[i]);
    }
    CHECK(same && distinct, "clone: contents equal %d, buffers distinct %d", same, distinct);
    CHECK(glm5_host_clone(ctx, &io, &clone) == MRT_OK, "clone: %s", mrt_last_error(ctx));
    clone.h[0] ^= 0x0100;
    clone.W_qb[5] ^= 1;
    clone.mla_cache[3] ^= 1;
    CHECK(io.h[0] != clone.h[0] && io.W_qb[5] != clone.W_qb[5] && io.mla_cache[3] != clone.mla_cache[3],
          "writing a clone changed the original");
    CHECK(bufs_equal(&io, &before, "h") && bufs_equal(&io, &before, "mla_cache"), "original changed by clone");
    glm5_host_free(&clone);
    CHECK(clone.h == NULL && clone.mla_cache == NULL, "glm5_host_free must clear the struct");

    /* The reference run and its self-consistency. */
    double t2 = secs();
    CHECK(glm5_naive(ctx, &io) == MRT_OK, "naive: %s", mrt_last_error(ctx));
    double t3 = secs();
    check_run(&io, &before);
    check_head(&io, 5);
    check_head(&io, cfg.heads - 1);
    check_logits(&io, shp.m - 1);
    check_new_cache(&io, 0);
    check_new_cache(&io, shp.m - 1);
    CHECK(all_bytes(before.r_new, buf_bytes(&before, "r_new"), 0xFF) &&
              all_bytes(before.topk, buf_bytes(&before, "topk"), 0xFF),
          "running the naive on the original changed its clone");

    /* Determinism: the same seed gives the same bytes, before and after the naive. */
    CHECK(glm5_host_random(ctx, &cfg, &shp, 1, &again) == MRT_OK, "host_random: %s", mrt_last_error(ctx));
    for (size_t i = 0; i < N_NAMES; i++)
        CHECK(bufs_equal(&again, &before, NAMES[i]), "seed 1 twice: %s differs", NAMES[i]);
    CHECK(glm5_naive(ctx, &again) == MRT_OK, "naive: %s", mrt_last_error(ctx));
    for (size_t i = 0; i < N_NAMES; i++)
        CHECK(bufs_equal(&again, &io, NAMES[i]), "two naive runs of seed 1: %s differs", NAMES[i]);
    glm5_host_free(&again);

    /* Bad inputs are refused with a message naming them, before anything is written. */
    before.block_table[6] = before.num_blocks; /* 5 blocks a request: [1][1] */
    CHECK(glm5_naive(ctx, &before) == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), "block_table[1][1]"),
          "bad block_table: '%s'", mrt_last_error(ctx));
    before.block_table[6] = io.block_table[6];
    before.pos[2] = shp.kv;
    CHECK(glm5_naive(ctx, &before) == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), "pos[2] = 300"),
          "bad pos: '%s'", mrt_last_error(ctx));
    before.pos[2] = io.pos[2];
    CHECK(all_bytes(before.r_new, buf_bytes(&before, "r_new"), 0xFF), "a refused run wrote outputs");
    CHECK(glm5_naive(ctx, NULL) == MRT_ERR_INVALID, "NULL io accepted");
    glm5_host_free(&before);
    glm5_host_free(&io);

    /* A small config of the same structure (every FP8 block grid still has a 64-row last
     * block row): a new seed gives new inputs and outputs, and a top-k narrower than the
     * context checks the selection itself. Full-size weights would make this slow. */
    glm5_config small = {.hidden = 512, .heads = 4, .q_lora = 256, .kv_lora = 512, .qk_nope = 192,
                         .qk_rope = 64, .idx_heads = 4, .idx_dim = 128, .topk = 100, .rms_eps = 1e-5f,
                         .ln_eps = 1e-6f, .rope_theta = 1e6, .block_tokens = 64};
    CHECK(glm5_host_random(ctx, &small, &shp, 1, &io) == MRT_OK, "host_random small: %s", mrt_last_error(ctx));
    CHECK(glm5_host_random(ctx, &small, &shp, 2, &other) == MRT_OK, "host_random small: %s", mrt_last_error(ctx));
    const char *vary[] = {"h", "res", "W_A", "W_qb", "W_uk", "mla_cache", "idx_cache", "w_in", "block_table"};
    for (size_t i = 0; i < sizeof vary / sizeof vary[0]; i++)
        CHECK(!bufs_equal(&other, &io, vary[i]), "seeds 1 and 2 give the same %s", vary[i]);
    test_host(&io);
    CHECK(glm5_host_clone(ctx, &io, &before) == MRT_OK, "clone: %s", mrt_last_error(ctx));
    CHECK(glm5_naive(ctx, &io) == MRT_OK, "naive small: %s", mrt_last_error(ctx));
    CHECK(glm5_naive(ctx, &other) == MRT_OK, "naive small: %s", mrt_last_error(ctx));
    CHECK(!bufs_equal(&other, &io, "qmla") && !bufs_equal(&other, &io, "logits") && !bufs_equal(&other, &io, "topk"),
          "seeds 1 and 2 give the same outputs");
    check_run(&io, &before);
    check_head(&io, 3);
    check_logits(&io, 0);
    check_new_cache(&io, 1);
    glm5_host_free(&other);
    glm5_host_free(&before);
    glm5_host_free(&io);

    /* DeepSeek-V3.2 dimensions, one request whose context ends mid-block. */
    glm5_config ds = glm5_config_dsv32();
    glm5_shape ds_shape = {2, 1, 130};
    CHECK(glm5_host_random(ctx, &ds, &ds_shape, 4, &io) == MRT_OK, "host_random V3.2: %s", mrt_last_error(ctx));
    test_host(&io);
    CHECK(glm5_host_clone(ctx, &io, &before) == MRT_OK, "clone: %s", mrt_last_error(ctx));
    CHECK(glm5_naive(ctx, &io) == MRT_OK, "naive V3.2: %s", mrt_last_error(ctx));
    check_run(&io, &before);
    check_head(&io, ds.heads - 1);
    check_logits(&io, 1);
    check_new_cache(&io, 0);
    glm5_host_free(&before);
    glm5_host_free(&io);

    printf("glm5 m=4 kv=300: host_random %.2f s, naive %.2f s (cpu time)\n", t1 - t0, t3 - t2);
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
