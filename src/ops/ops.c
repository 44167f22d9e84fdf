/* The op table (one entry per op kind, indexed by opcode) and the pairing registry. */
#include <string.h>

#include "ops.h"

static const mrt_op_class *const table[MRT_OPC_COUNT] = {
    NULL, &mrt_op_add_rmsnorm_quant, &mrt_op_gemm_fp8, &mrt_op_gemm_bf16,
    &mrt_op_bmm_bf16, &mrt_op_index_logits, &mrt_op_topk,
};

const mrt_op_class *mrt_op_class_get(int kind) {
    return kind > 0 && kind < MRT_OPC_COUNT ? table[kind] : NULL;
}

const mrt_op_class *mrt_op_class_find(const char *name) {
    for (int k = 1; k < MRT_OPC_COUNT; k++)
        if (!strcmp(table[k]->name, name)) return table[k];
    return NULL;
}

int mrt_op_class_count(void) { return MRT_OPC_COUNT - 1; }

int mrt_payload_rows(const uint32_t *payload) { return (int)(payload[1] - payload[0]); }

/* Fine pairing strategies, by (producer kind, consumer kind). The claim is checked from
 * the declared regions when a plan is lowered; anything not listed waits `whole`. */
static const struct { int prod, cons; mrt_strategy s; } pairings[] = {
    {MRT_OPC_ADD_RMSNORM_QUANT, MRT_OPC_GEMM_FP8, MRT_STRAT_COVER},   /* rows of x8 -> B0, B1 */
    {MRT_OPC_ADD_RMSNORM_QUANT, MRT_OPC_GEMM_BF16, MRT_STRAT_COVER},  /* rows of x -> C0 */
    {MRT_OPC_GEMM_FP8, MRT_OPC_GEMM_FP8, MRT_STRAT_COVER},            /* qr8 blocks -> D0, D1 */
    {MRT_OPC_GEMM_BF16, MRT_OPC_GEMM_FP8, MRT_STRAT_REDUCE},          /* gate partials -> D1 */
    {MRT_OPC_GEMM_FP8, MRT_OPC_BMM_BF16, MRT_STRAT_COVER},            /* per-head q -> D2 */
    {MRT_OPC_GEMM_FP8, MRT_OPC_INDEX_LOGITS, MRT_STRAT_COVER},        /* q8 heads, new keys -> E1 */
    {MRT_OPC_INDEX_LOGITS, MRT_OPC_TOPK, MRT_STRAT_COVER},            /* logits chunks -> F1 */
};

mrt_strategy mrt_pairing_lookup(int producer_kind, int consumer_kind) {
    for (size_t i = 0; i < sizeof pairings / sizeof pairings[0]; i++)
        if (pairings[i].prod == producer_kind && pairings[i].cons == consumer_kind) return pairings[i].s;
    return MRT_STRAT_WHOLE;
}

mrt_status mrt_expect(mrt_context *ctx, const mrt_op *op, const mrt_tensor *x, mrt_dtype dt, int ndim,
                      int64_t d0, int64_t d1, int64_t d2) {
    const char *kind = mrt_op_class_get(op->kind)->name;
    if (x->dtype != dt)
        return mrt_fail(ctx, MRT_ERR_DTYPE, "op %s (%s): tensor %s is %s, expected %s", op->name, kind, x->name,
                        mrt_dtype_name(x->dtype), mrt_dtype_name(dt));
    int64_t want[3] = {d0, d1, d2};
    if (x->ndim != ndim)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s (%s): tensor %s has %d dims, expected %d", op->name, kind, x->name,
                        x->ndim, ndim);
    for (int d = 0; d < ndim && d < 3; d++)
        if (want[d] >= 0 && x->dims[d] != want[d])
            return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s (%s): tensor %s has %lld in dim %d, expected %lld", op->name,
                            kind, x->name, (long long)x->dims[d], d, (long long)want[d]);
    return MRT_OK;
}

float mrt_e4m3_lut[256];

void mrt_e4m3_lut_init(void) {
    for (int i = 0; i < 256; i++) mrt_e4m3_lut[i] = mrt_e4m3_to_f32((uint8_t)i);
}

void mrt_tiler_cache_rows(mrt_tiler *t, const mrt_tensor *cache, const mrt_step_geom *s, int64_t t0, int64_t t1,
                          int64_t cols, int pub) {
    while (t0 < t1) {
        int64_t b = t0 / s->n, end = min64(t1, (b + 1) * s->n);
        int64_t p0 = s->kv - s->n + t0 % s->n, p1 = p0 + (end - t0);
        mrt_box bx = box(b * s->kv + p0, b * s->kv + p1, 0, cols);
        if (pub < 0) mrt_tiler_read(t, cache, bx);
        else mrt_tiler_write(t, cache, bx, pub);
        t0 = end;
    }
}

mrt_status mrt_check_step_inputs(mrt_context *ctx, const mrt_op *op, const mrt_step_geom *s, const int32_t *pos,
                                 const int32_t *block_table, int64_t num_blocks) {
    for (int64_t t = 0; t < s->m; t++) {
        int64_t want = s->kv - s->n + t % s->n;
        if (pos[t] != want)
            return mrt_fail(ctx, MRT_ERR_INVALID,
                            "op %s: pos[%lld] = %d, but the plan was built for context length %lld (position %lld); "
                            "rebuild the plan for this step's lengths", op->name, (long long)t, pos[t], (long long)s->kv,
                            (long long)want);
    }
    int64_t n = s->batch * ceil_div(s->kv, s->block_tokens);
    for (int64_t i = 0; i < n; i++)
        if (block_table[i] < 0 || block_table[i] >= num_blocks)
            return mrt_fail(ctx, MRT_ERR_INVALID, "op %s: block_table[%lld][%lld] = %d is outside the cache's %lld blocks",
                            op->name, (long long)(i / ceil_div(s->kv, s->block_tokens)),
                            (long long)(i % ceil_div(s->kv, s->block_tokens)), block_table[i], (long long)num_blocks);
    return MRT_OK;
}

int mrt_default_split(int64_t kblocks, int64_t tiles, double tile_bytes, double min_task_bytes, int workers) {
    int best = 1;
    for (int64_t s = 1; s <= kblocks; s++)
        if (kblocks % s == 0 && tiles * s <= workers && tile_bytes / (double)s >= min_task_bytes) best = (int)s;
    return best;
}
