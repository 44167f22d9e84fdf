/* The GLM-5 decode attention prefix as an OpGraph (../shared/GLM5_PREFIX.md), in the
 * article's op order: A0 B0 C0 B1 D1 D0 D2 E1, plus F1 (top-k). Tensor list and layouts:
 * docs/GLM5_TENSORS.md. The seed tiling fields reproduce the article's 732-task plan. */
#include <string.h>

#include "glm5_prefix.h"
#include "internal.h"
#include "ops.h"

typedef struct builder {
    mrt_graph *g;
    mrt_status st;
} builder;

static mrt_tensor *T(builder *b, const char *name, mrt_dtype dt, mrt_role role, int ndim, int64_t d0, int64_t d1,
                     int64_t d2) {
    if (b->st) return NULL;
    int64_t dims[3] = {d0, d1, d2};
    mrt_tensor *t = mrt_tensor_new(b->g, name, dt, role, ndim, dims);
    if (!t) b->st = MRT_ERR_INVALID;
    return t;
}

static void OP(builder *b, const char *kind, const char *name, int n_in, mrt_tensor **in, int n_out,
               mrt_tensor **out, const mrt_op_params *p) {
    if (b->st) return;
    if (!mrt_op_new(b->g, kind, name, n_in, in, n_out, out, p)) b->st = MRT_ERR_INVALID;
}

static mrt_op_params gemm_params(int epi, int bm, int bn, int split) {
    mrt_op_params p = {.i = {epi}, .seed_block_m = bm, .seed_block_n = bn, .seed_split = split};
    return p;
}

mrt_status glm5_prefix_graph(mrt_context *ctx, const glm5_config *c, const glm5_shape *s, mrt_graph **out) {
    if (!out) return MRT_ERR_INVALID;
    *out = NULL;
    mrt_status st = glm5_check_shape(ctx, c, s);
    if (st) return st;
    builder b = {.g = mrt_graph_new(ctx)};
    if (!b.g) return MRT_ERR_NOMEM;
    int64_t m = s->m, H = c->hidden, NA = glm5_qkv_a_cols(c), QL = c->q_lora, KL = c->kv_lora, R = c->qk_rope;
    int64_t heads = c->heads, nope = c->qk_nope, IH = c->idx_heads, ID = c->idx_dim;
    int64_t bpr = glm5_blocks_per_req(s, c), blocks = (int64_t)s->batch * bpr, bt = c->block_tokens;
    const mrt_dtype BF = MRT_BF16, E4 = MRT_E4M3, F32 = MRT_F32, I32 = MRT_I32, U8 = MRT_U8;
    const mrt_role IN = MRT_ROLE_INPUT, W = MRT_ROLE_WEIGHT, OUT = MRT_ROLE_OUTPUT, WS = MRT_ROLE_WORKSPACE,
                   CACHE = MRT_ROLE_CACHE;
    /* inputs */
    mrt_tensor *h = T(&b, "h", BF, IN, 2, m, H, 0), *res = T(&b, "res", BF, IN, 2, m, H, 0);
    mrt_tensor *pos = T(&b, "pos", I32, IN, 1, m, 0, 0), *btab = T(&b, "block_table", I32, IN, 2, s->batch, bpr, 0);
    mrt_tensor *rope_cs = T(&b, "rope_cs", F32, W, 2, s->kv, R, 0);
    /* weights */
    mrt_tensor *w_in = T(&b, "w_in", BF, W, 1, H, 0, 0);
    mrt_tensor *W_A = T(&b, "W_A", E4, W, 2, NA, H, 0), *sW_A = T(&b, "sW_A", F32, W, 2, (NA + 127) / 128, H / 128, 0);
    mrt_tensor *w_qn = T(&b, "w_qn", BF, W, 1, QL, 0, 0), *w_kvn = T(&b, "w_kvn", BF, W, 1, KL, 0, 0);
    mrt_tensor *W_gate = T(&b, "W_gate", BF, W, 2, IH, H, 0);
    mrt_tensor *W_k = T(&b, "W_k", E4, W, 2, ID, H, 0), *sW_k = T(&b, "sW_k", F32, W, 2, (ID + 127) / 128, H / 128, 0);
    mrt_tensor *ln_k_w = T(&b, "ln_k_w", BF, W, 1, ID, 0, 0), *ln_k_b = T(&b, "ln_k_b", BF, W, 1, ID, 0, 0);
    mrt_tensor *W_qb = T(&b, "W_qb", E4, W, 2, heads * (nope + R), QL, 0);
    mrt_tensor *sW_qb = T(&b, "sW_qb", F32, W, 2, (heads * (nope + R) + 127) / 128, QL / 128, 0);
    mrt_tensor *W_iq = T(&b, "W_iq", E4, W, 2, IH * ID, QL, 0);
    mrt_tensor *sW_iq = T(&b, "sW_iq", F32, W, 2, (IH * ID + 127) / 128, QL / 128, 0);
    mrt_tensor *W_uk = T(&b, "W_uk", BF, W, 3, heads, nope, KL);
    /* caches */
    mrt_tensor *mla = T(&b, "mla_cache", U8, CACHE, 2, blocks, bt * glm5_mla_entry_bytes(c), 0);
    mrt_tensor *idx = T(&b, "idx_cache", U8, CACHE, 2, blocks, glm5_idx_block_bytes(c), 0);
    /* outputs */
    mrt_tensor *r_new = T(&b, "r_new", BF, OUT, 2, m, H, 0);
    mrt_tensor *qmla = T(&b, "qmla", BF, OUT, 3, m, heads, KL + R);
    mrt_tensor *logits = T(&b, "logits", F32, OUT, 2, m, s->kv, 0);
    mrt_tensor *topk = T(&b, "topk", I32, OUT, 2, m, c->topk, 0);
    /* workspaces */
    mrt_tensor *x = T(&b, "x", BF, WS, 2, m, H, 0), *x8 = T(&b, "x8", E4, WS, 2, m, H, 0);
    mrt_tensor *sx = T(&b, "sx", F32, WS, 2, m, H / 128, 0);
    mrt_tensor *qr8 = T(&b, "qr8", E4, WS, 2, m, QL, 0), *sqr = T(&b, "sqr", F32, WS, 2, m, QL / 128, 0);
    mrt_tensor *ssq = T(&b, "ssq", F32, WS, 2, m, QL / 128, 0);
    mrt_tensor *gate = T(&b, "gate", F32, WS, 2, m, IH, 0);
    mrt_tensor *q_nope = T(&b, "q_nope", BF, WS, 3, m, heads, nope), *q_pe = T(&b, "q_pe", BF, WS, 3, m, heads, R);
    mrt_tensor *q8i = T(&b, "q8i", E4, WS, 3, m, IH, ID), *wI = T(&b, "wI", F32, WS, 2, m, IH, 0);

    int32_t geo[3] = {s->batch, s->kv, c->block_tokens};
    mrt_op_params p = {.f = {c->rms_eps}, .seed_block_m = 1};
    OP(&b, "add_rmsnorm_quant", "A0", 3, (mrt_tensor *[]){h, res, w_in}, 4, (mrt_tensor *[]){r_new, x, x8, sx}, &p);

    p = gemm_params(MRT_EPI_QKV_A, 16, 128, 4);
    p.i[1] = (int32_t)QL, p.i[2] = (int32_t)KL, p.i[3] = (int32_t)R, p.f[0] = c->rms_eps;
    memcpy(&p.i[4], geo, sizeof geo);
    OP(&b, "gemm_fp8", "B0", 9, (mrt_tensor *[]){x8, sx, W_A, sW_A, w_qn, w_kvn, pos, btab, rope_cs}, 4,
       (mrt_tensor *[]){qr8, sqr, ssq, mla}, &p);

    p = (mrt_op_params){.seed_block_m = 16, .seed_split = 48};
    OP(&b, "gemm_bf16", "C0", 2, (mrt_tensor *[]){x, W_gate}, 1, (mrt_tensor *[]){gate}, &p);

    p = gemm_params(MRT_EPI_INDEX_K, 16, 128, 8);
    p.f[0] = c->ln_eps;
    memcpy(&p.i[4], geo, sizeof geo);
    OP(&b, "gemm_fp8", "B1", 9, (mrt_tensor *[]){x8, sx, W_k, sW_k, ln_k_w, ln_k_b, pos, btab, rope_cs}, 1,
       (mrt_tensor *[]){idx}, &p);

    p = gemm_params(MRT_EPI_INDEX_Q, 16, 128, 4);
    p.i[1] = (int32_t)IH, p.i[2] = (int32_t)ID, p.i[3] = (int32_t)R, p.f[0] = c->rms_eps;
    OP(&b, "gemm_fp8", "D1", 8, (mrt_tensor *[]){qr8, sqr, W_iq, sW_iq, ssq, gate, pos, rope_cs}, 2,
       (mrt_tensor *[]){q8i, wI}, &p);

    p = gemm_params(MRT_EPI_Q_B, 16, 128, 1);
    p.i[1] = (int32_t)heads, p.i[2] = (int32_t)nope, p.i[3] = (int32_t)R, p.f[0] = c->rms_eps;
    OP(&b, "gemm_fp8", "D0", 7, (mrt_tensor *[]){qr8, sqr, W_qb, sW_qb, ssq, pos, rope_cs}, 2,
       (mrt_tensor *[]){q_nope, q_pe}, &p);

    p = (mrt_op_params){.seed_block_m = 16, .seed_block_n = 128};
    OP(&b, "bmm_bf16", "D2", 3, (mrt_tensor *[]){q_nope, q_pe, W_uk}, 1, (mrt_tensor *[]){qmla}, &p);

    p = (mrt_op_params){.seed_chunk = 256};
    memcpy(&p.i[4], geo, sizeof geo);
    OP(&b, "index_logits", "E1", 5, (mrt_tensor *[]){q8i, wI, idx, pos, btab}, 1, (mrt_tensor *[]){logits}, &p);

    p = (mrt_op_params){.i = {c->topk}};
    OP(&b, "topk", "F1", 1, (mrt_tensor *[]){logits}, 1, (mrt_tensor *[]){topk}, &p);

    if (!b.st) b.st = mrt_graph_validate(b.g);
    if (b.st) {
        mrt_graph_free(b.g);
        return b.st;
    }
    *out = b.g;
    return MRT_OK;
}
