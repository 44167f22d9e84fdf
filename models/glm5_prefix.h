/* The GLM-5 decode attention prefix (../shared/GLM5_PREFIX.md): graph builder, host
 * buffers with seeded random weights and inputs, and the naive reference.
 * Tensor names and layouts: docs/GLM5_TENSORS.md. Rounding: docs/NUMERICS.md. */
#ifndef MRT_GLM5_PREFIX_H
#define MRT_GLM5_PREFIX_H

#include "megartp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glm5_config {
    int hidden, heads, q_lora, kv_lora, qk_nope, qk_rope;
    int idx_heads, idx_dim, topk;
    float rms_eps, ln_eps;
    double rope_theta;
    int block_tokens; /* KV page size (tokens per cache block); on the GPU a multiple of 4, for the
                       * megakernel (which loads the index cache's blocks whole by TMA) 8, 16,
                       * 32, 64 or a multiple of 128 (mega refuses others; serial runs them) */
} glm5_config;

glm5_config glm5_config_glm5(void);   /* GLM-5: hidden 6144, 64 heads, q_lora 2048 */
glm5_config glm5_config_dsv32(void);  /* DeepSeek-V3.2: hidden 7168, 128 heads, q_lora 1536 */
/* GLM-5 reduced to hidden 1024, 4 heads, q_lora 512 (the rest as GLM-5): the same kernels with
 * a fraction of the work, for the sanitizers' tools (racecheck did not finish GLM-5's step). */
glm5_config glm5_config_reduced(void);

/* One decode step: m tokens = batch requests x (m / batch) new tokens each, every
 * request with context length kv (its new tokens at positions kv-n .. kv-1). */
typedef struct glm5_shape {
    int m, batch, kv;
} glm5_shape;

/* Derived sizes. */
int glm5_qkv_a_cols(const glm5_config *c);   /* q_lora + kv_lora + qk_rope */
int glm5_mla_entry_bytes(const glm5_config *c); /* kv_lora + 4 * kv_lora/128 + 2 * qk_rope */
int glm5_idx_block_bytes(const glm5_config *c); /* block_tokens * (idx_dim + 4) */
int glm5_blocks_per_req(const glm5_shape *s, const glm5_config *c);

/* Checks the shape (m > 0, m divisible by batch, kv >= new tokens per request, dims
 * multiples of 128 where the kernels need it) with a message naming the bad value. */
mrt_status glm5_check_shape(mrt_context *ctx, const glm5_config *c, const glm5_shape *s);

/* Builds the OpGraph: ops A0 B0 C0 B1 D1 D0 D2 E1 F1 (in that order). */
mrt_status glm5_prefix_graph(mrt_context *ctx, const glm5_config *c, const glm5_shape *s,
                             mrt_graph **out);

/* Host buffers of every graph tensor the caller supplies or reads. Element types:
 * bf16 as uint16_t bits, e4m3 as uint8_t codes. */
typedef struct glm5_host {
    glm5_config cfg;
    glm5_shape shape;
    int num_blocks; /* cache blocks: batch * blocks_per_req */
    /* inputs */
    uint16_t *h, *res;   /* [m, hidden] */
    int32_t *pos;        /* [m] */
    int32_t *block_table; /* [batch, blocks_per_req], a permutation of 0..num_blocks-1 */
    float *rope_cs;      /* [kv, qk_rope]: cos of pairs 0..31, then sin of pairs 0..31 */
    /* weights */
    uint16_t *w_in;          /* [hidden] */
    uint8_t *W_A; float *sW_A; /* [q_lora+kv_lora+rope, hidden], [ceil(N/128), hidden/128] */
    uint16_t *w_qn, *w_kvn;  /* [q_lora], [kv_lora] */
    uint16_t *W_gate;        /* [idx_heads, hidden] */
    uint8_t *W_k; float *sW_k; /* [idx_dim, hidden], [1, hidden/128] */
    uint16_t *ln_k_w, *ln_k_b; /* [idx_dim] */
    uint8_t *W_qb; float *sW_qb; /* [heads*(nope+rope), q_lora], [../128, q_lora/128] */
    uint8_t *W_iq; float *sW_iq; /* [idx_heads*idx_dim, q_lora], [../128, q_lora/128] */
    uint16_t *W_uk;          /* [heads, nope, kv_lora] */
    /* caches, updated in place */
    uint8_t *mla_cache; /* [num_blocks, block_tokens * mla_entry_bytes] */
    uint8_t *idx_cache; /* [num_blocks, idx_block_bytes]: codes, then fp32 scales */
    /* outputs */
    uint16_t *r_new;  /* [m, hidden] */
    uint16_t *qmla;   /* [m, heads, kv_lora + rope] */
    float *logits;    /* [m, kv] */
    int32_t *topk;    /* [m, topk] */
} glm5_host;

/* Allocates every buffer and fills inputs, weights and cache history from `seed`
 * (realistic magnitudes, never zeros); outputs and the new tokens' cache slots are
 * poisoned (0xFF bytes). */
mrt_status glm5_host_random(mrt_context *ctx, const glm5_config *c, const glm5_shape *s,
                            uint64_t seed, glm5_host *out);
/* A deep copy (for running the reference and an executor on the same inputs). */
mrt_status glm5_host_clone(mrt_context *ctx, const glm5_host *src, glm5_host *dst);
void glm5_host_free(glm5_host *h);
/* Pointer to the host buffer of graph tensor `name`, or NULL (workspaces have none). */
void *glm5_host_buffer(const glm5_host *h, const char *name);

/* The naive reference, written straight from the math (plain loops, fp32/fp64, no
 * tiling, no code shared with src/ops beyond numerics.h). Writes the outputs and the
 * new tokens' cache entries of `io`. */
mrt_status glm5_naive(mrt_context *ctx, glm5_host *io);

#ifdef __cplusplus
}
#endif

#endif
