/* gemm_bf16 (C0, the indexer head gate): out = x . W^T, bf16 inputs, fp32 result kept as
 * split-K partials [nsplit, M, N] that the consumer sums in split order (tile_reduce: the
 * event counts partials, it does not add them).
 * in: x [M,K] bf16, W [N,K] bf16; out: gate [M,N] f32 (partials).
 * Payload: m0 m1 k0 k1 split. Publication 0: the partial. */
#include <string.h>

#include "ops.h"

static mrt_status check(mrt_context *ctx, const mrt_graph *g, const mrt_op *op) {
    const mrt_tensor *x = op_in(g, op, 0), *w = op_in(g, op, 1);
    mrt_status s;
    if ((s = mrt_expect(ctx, op, x, MRT_BF16, 2, -1, -1, -1)) || (s = mrt_expect(ctx, op, w, MRT_BF16, 2, -1, -1, -1)))
        return s;
    if (w->dims[1] != x->dims[1])
        return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s (gemm_bf16): input %s has %lld columns, weight %s has %lld", op->name,
                        x->name, (long long)x->dims[1], w->name, (long long)w->dims[1]);
    if (x->dims[1] % 128)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s (gemm_bf16): K = %lld is not a multiple of 128", op->name,
                        (long long)x->dims[1]);
    return mrt_expect(ctx, op, op_out(g, op, 0), MRT_F32, 2, x->dims[0], w->dims[0], -1);
}

/* A skinny weight (32 x 6144 bf16, 393 KB): split K like the fp8 GEMMs (mrt_default_split)
 * but down to tasks of 24 KiB, 16 at GLM-5 size: its standalone kernel's split sweep (H200,
 * bench/gemm/NOTES.md, M=16, graph with PDL edges) measured 8 splits 6.6 us (7.2 through a
 * cluster), 16 5.6 (5.2), 24 5.6, 32 5.7, 48 6.6. The gate is on D1's finalization's path. */
static mrt_tile_cfg default_cfg(const mrt_graph *g, const mrt_op *op, int workers) {
    const mrt_tensor *x = op_in(g, op, 0), *w = op_in(g, op, 1);
    int64_t m = x->dims[0], k = x->dims[1];
    mrt_tile_cfg c = {.block_m = (int)(m <= 128 ? m : 128)};
    c.split = mrt_default_split(k / 128, ceil_div(m, c.block_m), (double)w->dims[0] * k * 2, 24.0 * 1024, workers);
    c.tasks = (int)ceil_div(m, c.block_m) * c.split;
    return c;
}

static mrt_status tile(mrt_tiler *t, const mrt_graph *g, const mrt_op *op, mrt_tile_cfg cfg) {
    const mrt_tensor *x = op_in(g, op, 0), *w = op_in(g, op, 1), *out = op_out(g, op, 0);
    int64_t m = x->dims[0], k = x->dims[1], n = w->dims[0], kblocks = k / 128;
    if (cfg.block_m < 1 || cfg.split < 1)
        return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: tiling block_m %d split %d", op->name, cfg.block_m, cfg.split);
    int64_t kbs, nsplit = mrt_split_blocks(kblocks, cfg.split, &kbs);
    mrt_tiler_set_partials(t, out, (int)nsplit);
    for (int64_t m0 = 0; m0 < m; m0 += cfg.block_m) {
        int64_t m1 = min64(m, m0 + cfg.block_m);
        for (int64_t s = 0; s < nsplit; s++) {
            int64_t k0 = s * kbs * 128, k1 = min64(k, k0 + kbs * 128);
            uint32_t *pl = mrt_tiler_task(t, (double)(n + m1 - m0) * (k1 - k0) * 2, 2.0 * (m1 - m0) * n * (k1 - k0));
            uint32_t v[5] = {(uint32_t)m0, (uint32_t)m1, (uint32_t)k0, (uint32_t)k1, (uint32_t)s};
            memcpy(pl, v, sizeof v);
            mrt_tiler_read(t, x, box(m0, m1, k0, k1));
            mrt_tiler_read(t, w, box(0, n, k0, k1));
            mrt_tiler_partial(t, out, box(m0, m1, 0, n), 0);
        }
    }
    return MRT_OK;
}

static void cpu(const mrt_cpu_tile *c) {
    const mrt_tensor *x = op_in(c->plan->g, c->op, 0), *w = op_in(c->plan->g, c->op, 1);
    int64_t m = x->dims[0], k = x->dims[1], n = w->dims[0];
    const uint16_t *X = SLOT(c, 0, uint16_t), *W = SLOT(c, 1, uint16_t);
    float *out = SLOT(c, 2, float) + (int64_t)c->payload[4] * m * n;
    for (int64_t r = c->payload[0]; r < c->payload[1]; r++)
        for (int64_t j = 0; j < n; j++) {
            float acc = 0;
            for (int64_t i = c->payload[2]; i < c->payload[3]; i++)
                acc += mrt_bf16_to_f32(X[r * k + i]) * mrt_bf16_to_f32(W[j * k + i]);
            out[r * n + j] = acc;
        }
}

const mrt_op_class mrt_op_gemm_bf16 = {
    .name = "gemm_bf16", .opcode = MRT_OPC_GEMM_BF16, .n_in = 2, .n_out = 1,
    .check = check, .default_cfg = default_cfg, .tile = tile, .cpu = cpu,
    .tokens = mrt_payload_rows,
};
