/* bmm_bf16 (D2, W_UK absorption): per head h, ql_nope[:, h, :] = q_nope[:, h, :] . W_uk[h],
 * written with the head's roped q_pe into the FlashMLA query [M, H, C + R].
 * in: q_nope [M,H,D] bf16, q_pe [M,H,R] bf16, W_uk [H,D,C] bf16; out: qmla [M,H,C+R] bf16.
 * Tiles: (M tile, head, block_n columns of C); the head's last tile also copies q_pe.
 * Payload: m0 m1 h n0 n1. Publication 0. */
#include <string.h>

#include "ops.h"

static mrt_status check(mrt_context *ctx, const mrt_graph *g, const mrt_op *op) {
    const mrt_tensor *q = op_in(g, op, 0), *w = op_in(g, op, 2);
    mrt_status s;
    if ((s = mrt_expect(ctx, op, q, MRT_BF16, 3, -1, -1, -1)) || (s = mrt_expect(ctx, op, w, MRT_BF16, 3, q->dims[1], q->dims[2], -1)))
        return s;
    const mrt_tensor *pe = op_in(g, op, 1);
    if ((s = mrt_expect(ctx, op, pe, MRT_BF16, 3, q->dims[0], q->dims[1], -1))) return s;
    return mrt_expect(ctx, op, op_out(g, op, 0), MRT_BF16, 3, q->dims[0], q->dims[1], w->dims[2] + pe->dims[2]);
}

/* 256 columns of the 512: two tasks a head (128 at GLM-5 size), ~96 KB of W_uk each. 256 is
 * what one tile of Hopper's MN-major wgmma role computes (two consumer warpgroups x 128
 * columns, src/ops/gemm_core.cuh): a 128-column tile would stream 256 columns of weights
 * and drop half of them. */
static mrt_tile_cfg default_cfg(const mrt_graph *g, const mrt_op *op, int workers) {
    (void)workers;
    int64_t m = op_in(g, op, 0)->dims[0];
    mrt_tile_cfg c = {.block_m = (int)(m <= 128 ? m : 128), .block_n = 256};
    return c;
}

static mrt_status tile(mrt_tiler *t, const mrt_graph *g, const mrt_op *op, mrt_tile_cfg cfg) {
    const mrt_tensor *q = op_in(g, op, 0), *pe = op_in(g, op, 1), *w = op_in(g, op, 2), *out = op_out(g, op, 0);
    int64_t m = q->dims[0], heads = q->dims[1], d = q->dims[2], cols = w->dims[2], r = pe->dims[2];
    if (cfg.block_m < 1 || cfg.block_n < 8)
        return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: tiling block_m %d block_n %d", op->name, cfg.block_m, cfg.block_n);
    for (int64_t m0 = 0; m0 < m; m0 += cfg.block_m) {
        int64_t m1 = min64(m, m0 + cfg.block_m);
        for (int64_t h = 0; h < heads; h++)
            for (int64_t n0 = 0; n0 < cols; n0 += cfg.block_n) {
                int64_t n1 = min64(cols, n0 + cfg.block_n);
                uint32_t *pl = mrt_tiler_task(t, (double)d * (n1 - n0) * 2 + (double)(m1 - m0) * d * 2,
                                                    2.0 * (m1 - m0) * d * (n1 - n0));
                uint32_t v[5] = {(uint32_t)m0, (uint32_t)m1, (uint32_t)h, (uint32_t)n0, (uint32_t)n1};
                memcpy(pl, v, sizeof v);
                mrt_tiler_read(t, q, box(m0, m1, h * d, (h + 1) * d));
                mrt_tiler_read(t, w, box(h, h + 1, 0, d * cols));
                mrt_tiler_write(t, out, box(m0, m1, h * (cols + r) + n0, h * (cols + r) + n1), 0);
                if (n1 == cols) {
                    mrt_tiler_read(t, pe, box(m0, m1, h * r, (h + 1) * r));
                    mrt_tiler_write(t, out, box(m0, m1, h * (cols + r) + cols, (h + 1) * (cols + r)), 0);
                }
            }
    }
    return MRT_OK;
}

static void cpu(const mrt_cpu_tile *c) {
    const mrt_graph *g = c->plan->g;
    const mrt_tensor *q = op_in(g, c->op, 0), *pe = op_in(g, c->op, 1), *w = op_in(g, c->op, 2);
    int64_t heads = q->dims[1], d = q->dims[2], cols = w->dims[2], r = pe->dims[2];
    const uint16_t *Q = SLOT(c, 0, uint16_t), *PE = SLOT(c, 1, uint16_t), *W = SLOT(c, 2, uint16_t);
    uint16_t *out = SLOT(c, 3, uint16_t);
    int64_t h = c->payload[2], n0 = c->payload[3], n1 = c->payload[4];
    for (int64_t m = c->payload[0]; m < c->payload[1]; m++) {
        const uint16_t *qr = Q + (m * heads + h) * d;
        uint16_t *o = out + (m * heads + h) * (cols + r);
        for (int64_t j = n0; j < n1; j++) {
            float acc = 0;
            for (int64_t i = 0; i < d; i++) acc += mrt_bf16_to_f32(qr[i]) * mrt_bf16_to_f32(W[(h * d + i) * cols + j]);
            o[j] = mrt_f32_to_bf16(acc);
        }
        if (n1 == cols) memcpy(o + cols, PE + (m * heads + h) * r, (size_t)r * 2);
    }
}

const mrt_op_class mrt_op_bmm_bf16 = {
    .name = "bmm_bf16", .opcode = MRT_OPC_BMM_BF16, .n_in = 3, .n_out = 1,
    .check = check, .default_cfg = default_cfg, .tile = tile, .cpu = cpu,
    .tokens = mrt_payload_rows,
};
