/* Model constants of the GLM-5 decode attention prefix and of DeepSeek-V3.2 (the same
 * architecture with other sizes), the sizes derived from them, and the shape check.
 * The numbers come from ../shared/GLM5_PREFIX.md (model constants table). */
#include <stddef.h>

#include "glm5_prefix.h"
#include "internal.h"

glm5_config glm5_config_glm5(void) {
    glm5_config c;
    c.hidden = 6144;
    c.heads = 64;
    c.q_lora = 2048;
    c.kv_lora = 512;
    c.qk_nope = 192;
    c.qk_rope = 64;
    c.idx_heads = 32;
    c.idx_dim = 128;
    c.topk = 2048;
    c.rms_eps = 1e-5f;
    c.ln_eps = 1e-6f; /* the indexer k LayerNorm uses its own, smaller eps */
    c.rope_theta = 1e6;
    c.block_tokens = 64;
    return c;
}

glm5_config glm5_config_reduced(void) {
    glm5_config c = glm5_config_glm5();
    c.hidden = 1024, c.heads = 4, c.q_lora = 512;
    return c;
}

glm5_config glm5_config_dsv32(void) {
    glm5_config c;
    c.hidden = 7168;
    c.heads = 128;
    c.q_lora = 1536;
    c.kv_lora = 512;
    c.qk_nope = 128;
    c.qk_rope = 64;
    c.idx_heads = 64;
    c.idx_dim = 128;
    c.topk = 2048;
    c.rms_eps = 1e-6f; /* DeepSeek-V3.2's config.json: rms_norm_eps 1e-6 */
    c.ln_eps = 1e-6f;
    /* V3.2 uses YaRN on top of theta 1e4; the prefix has no YaRN option, and the plain
     * theta exercises the same code paths. */
    c.rope_theta = 1e4;
    c.block_tokens = 64;
    return c;
}

int glm5_qkv_a_cols(const glm5_config *c) { return c->q_lora + c->kv_lora + c->qk_rope; }

/* fp8_ds_mla: kv_lora e4m3 codes, one fp32 scale per 128 codes, qk_rope bf16 values. */
int glm5_mla_entry_bytes(const glm5_config *c) {
    return c->kv_lora + 4 * (c->kv_lora / 128) + 2 * c->qk_rope;
}

/* A block holds its tokens' codes first (token-major), then their fp32 scales. */
int glm5_idx_block_bytes(const glm5_config *c) { return c->block_tokens * (c->idx_dim + 4); }

int glm5_blocks_per_req(const glm5_shape *s, const glm5_config *c) {
    return (s->kv + c->block_tokens - 1) / c->block_tokens;
}

/* A dimension that the 1x128 / 128x128 block scales tile must be a multiple of 128. */
static mrt_status check_mult128(mrt_context *ctx, const char *name, int v) {
    if (v <= 0 || v % 128 != 0)
        return mrt_fail(ctx, MRT_ERR_SHAPE,
                        "glm5 config: %s = %d must be a positive multiple of 128 "
                        "(FP8 scales cover 128-wide blocks)",
                        name, v);
    return MRT_OK;
}

static mrt_status check_positive(mrt_context *ctx, const char *name, int v) {
    if (v <= 0) return mrt_fail(ctx, MRT_ERR_SHAPE, "glm5 config: %s = %d must be positive", name, v);
    return MRT_OK;
}

mrt_status glm5_check_shape(mrt_context *ctx, const glm5_config *c, const glm5_shape *s) {
    mrt_status st;
    if (!c || !s)
        return mrt_fail(ctx, MRT_ERR_INVALID, "glm5_check_shape: %s is NULL",
                        !c ? "config" : "shape");

    if ((st = check_mult128(ctx, "hidden", c->hidden)) != MRT_OK) return st;
    if ((st = check_mult128(ctx, "q_lora", c->q_lora)) != MRT_OK) return st;
    if ((st = check_mult128(ctx, "kv_lora", c->kv_lora)) != MRT_OK) return st;
    if ((st = check_positive(ctx, "heads", c->heads)) != MRT_OK) return st;
    if ((st = check_positive(ctx, "qk_nope", c->qk_nope)) != MRT_OK) return st;
    if ((st = check_positive(ctx, "qk_rope", c->qk_rope)) != MRT_OK) return st;
    if ((st = check_positive(ctx, "idx_heads", c->idx_heads)) != MRT_OK) return st;
    if ((st = check_positive(ctx, "idx_dim", c->idx_dim)) != MRT_OK) return st;
    if ((st = check_positive(ctx, "topk", c->topk)) != MRT_OK) return st;
    if ((st = check_positive(ctx, "block_tokens", c->block_tokens)) != MRT_OK) return st;
    /* RoPE rotates interleaved pairs, so the rotary width must be even. */
    if (c->qk_rope % 2 != 0)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "glm5 config: qk_rope = %d must be even (RoPE pairs)",
                        c->qk_rope);
    /* The indexer ropes the first qk_rope values of each of its heads. */
    if (c->idx_dim < c->qk_rope)
        return mrt_fail(ctx, MRT_ERR_SHAPE,
                        "glm5 config: idx_dim = %d is smaller than the rotary width qk_rope = %d",
                        c->idx_dim, c->qk_rope);
    /* `!(x > 0)` also rejects NaN. */
    if (!(c->rms_eps > 0.0f) || !(c->ln_eps > 0.0f))
        return mrt_fail(ctx, MRT_ERR_SHAPE, "glm5 config: eps must be positive (rms_eps %g, ln_eps %g)",
                        (double)c->rms_eps, (double)c->ln_eps);
    if (!(c->rope_theta > 0.0))
        return mrt_fail(ctx, MRT_ERR_SHAPE, "glm5 config: rope_theta = %g must be positive",
                        c->rope_theta);

    if (s->m <= 0)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "glm5 shape: m = %d tokens, need at least 1", s->m);
    if (s->batch <= 0)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "glm5 shape: batch = %d requests, need at least 1",
                        s->batch);
    if (s->m % s->batch != 0)
        return mrt_fail(ctx, MRT_ERR_SHAPE,
                        "glm5 shape: m = %d tokens do not split evenly over batch = %d requests",
                        s->m, s->batch);
    int n = s->m / s->batch;
    if (s->kv < n)
        return mrt_fail(ctx, MRT_ERR_SHAPE,
                        "glm5 shape: context length kv = %d is shorter than the %d new tokens "
                        "of each request",
                        s->kv, n);
    return MRT_OK;
}
