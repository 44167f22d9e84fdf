/* A0: r = h + res (new residual), x = RMSNorm(r) * w, and its 1x128 e4m3 quantization.
 * in:  h [M,H] bf16, res [M,H] bf16, w_in [H] bf16          params: f[0] = eps
 * out: r_new [M,H] bf16, x [M,H] bf16, x8 [M,H] e4m3, sx [M,H/128] f32
 * Tiles: block_m rows each, each row in `split` slices of its 128-groups (--split A0=S): a
 * slice sums the whole row (the factor needs every element) and normalizes, quantizes and
 * stores its own groups. Payload: rows [p0, p1), groups [p2, p3). Publications: 0 = {x8, sx}
 * (the GEMMs' input), 1 = {x, r_new} (the head gate's input and the residual) — the
 * article's e0 / e1. */
#include <math.h>

#include "ops.h"

static mrt_status check(mrt_context *ctx, const mrt_graph *g, const mrt_op *op) {
    const mrt_tensor *h = op_in(g, op, 0);
    int64_t m = h->dims[0], hid = h->ndim == 2 ? h->dims[1] : -1;
    mrt_status s;
    if ((s = mrt_expect(ctx, op, h, MRT_BF16, 2, -1, -1, -1))) return s;
    if (hid % 128 || hid > 16384)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s: hidden size %lld is not a multiple of 128 up to 16384", op->name,
                        (long long)hid);
    if ((s = mrt_expect(ctx, op, op_in(g, op, 1), MRT_BF16, 2, m, hid, -1)) ||
        (s = mrt_expect(ctx, op, op_in(g, op, 2), MRT_BF16, 1, hid, -1, -1)) ||
        (s = mrt_expect(ctx, op, op_out(g, op, 0), MRT_BF16, 2, m, hid, -1)) ||
        (s = mrt_expect(ctx, op, op_out(g, op, 1), MRT_BF16, 2, m, hid, -1)) ||
        (s = mrt_expect(ctx, op, op_out(g, op, 2), MRT_E4M3, 2, m, hid, -1)) ||
        (s = mrt_expect(ctx, op, op_out(g, op, 3), MRT_F32, 2, m, hid / 128, -1)))
        return s;
    if (!(op->p.f[0] > 0))
        return mrt_fail(ctx, MRT_ERR_INVALID, "op %s: RMSNorm eps %g must be > 0", op->name, op->p.f[0]);
    return MRT_OK;
}

/* One row a tile while the rows fit the workers, else as few rows a tile as cover them:
 * a row is latency-bound one-shot code on one SM (7-11 us in the megakernel), and every GEMM
 * of the step waits for all of them, so rows in sequence on one worker are the step's first
 * cost. Until session 14 at most 32 tiles (so that the queue heads stayed short): at M=128
 * A0 took 31 us as 32 tasks of four rows, and the megakernel's step 257 us against 241 with
 * a row a task (M=64: 163.5 against 158.6; H200, bench/RESULTS.md session 14 run 4). */
/* Few rows (up to MRT_A0_SLICE_ROWS): each in slices, up to MRT_A0_SLICE_TASKS tasks (a power
 * of two dividing the row's groups, so that slices nest in the GEMMs' K splits; plan.c plans
 * fewer slices where a slice would still need more than a task's signals). A slice's second
 * pass (normalize, quantize, store: most of a row's instructions) is its share; the first
 * (loads, sum) is the whole row's. The split-K GEMMs after A0 leave the slices their workers
 * (plan.c share_workers: M=2..16 A0 32 + B0 63 + C0 16 + B1 16 = 127 tasks, every first GEMM
 * tile streaming its weights from the step's start; M=1, 16 slices, its 48 groups' most, B0
 * 84). Measured (H200, bench/RESULTS.md; A Bs within a run):
 * - session 29 runs 3-5, 16 tasks: M=1 KV=8192 61.43 us in 16 slices against 63.30 unsliced
 *   (8: 61.70, 4: 61.77) and 62.58 / 62.61 against 63.43 / 63.53, M=1 KV=1024 58.03 against
 *   59.69, M=2 KV=8192 67.40 against 69.07, M=4 and M=8 level to -0.6. At M=16 4 slices (64
 *   tasks) beside B0's 84 tiles 1.6 us slower at KV=8192 (64 workers' first GEMM tiles queued
 *   behind a slice instead of streaming their weights from the start).
 * - session 30, 32 tasks beside B0 in 3 K splits: M=16 (run 3) KV=1024 61.21 / 61.12 against
 *   62.52 / 62.62 unsliced, KV=8192 67.01 / 66.85 against 67.11 / 67.16, KV=65536 117.51
 *   against 119.40; against 16 tasks (run 5, KV=8192) M=2 69.14 / 68.31 against 69.96 / 68.68,
 *   M=4 68.75 / 68.45 against 69.74 / 69.02, M=8 70.34 / 70.22 against 70.27 / 70.03 (level);
 *   M=1 with B0 in 3 splits beside its 16 63.53 / 63.83 against 62.35 / 62.49 (not taken). */
#define MRT_A0_SLICE_TASKS 32
#define MRT_A0_SLICE_ROWS 16
static mrt_tile_cfg default_cfg(const mrt_graph *g, const mrt_op *op, int workers) {
    int64_t m = op_in(g, op, 0)->dims[0], groups = op_in(g, op, 0)->dims[1] / 128;
    mrt_tile_cfg c = {.block_m = (int)(m <= workers ? 1 : ceil_div(m, workers)), .split = 1};
    while (m <= MRT_A0_SLICE_ROWS && m * c.split * 2 <= MRT_A0_SLICE_TASKS && groups % (c.split * 2) == 0) c.split *= 2;
    return c;
}

static mrt_status tile(mrt_tiler *t, const mrt_graph *g, const mrt_op *op, mrt_tile_cfg cfg) {
    const mrt_tensor *h = op_in(g, op, 0);
    int64_t m = h->dims[0], hid = h->dims[1];
    const int64_t groups = hid / 128;
    if (cfg.block_m < 1) return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: block_m %d", op->name, cfg.block_m);
    if (cfg.split < 1 || cfg.split > groups)
        return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: %d slices of a row of %lld 128-groups", op->name, cfg.split,
                        (long long)groups);
    for (int64_t r0 = 0; r0 < m; r0 += cfg.block_m) {
        int64_t r1 = min64(m, r0 + cfg.block_m);
        for (int sl = 0; sl < cfg.split; sl++) {
            const int64_t g0 = groups * sl / cfg.split, g1 = groups * (sl + 1) / cfg.split, c0 = g0 * 128, c1 = g1 * 128;
            /* bytes: the rows' h and res, then this slice's outputs; arithmetic: the sum of
             * squares over the row, the rest over the slice (9 and 8 a row element unsliced) */
            uint32_t *pl = mrt_tiler_task(t, (double)(r1 - r0) * (hid * 4 + (c1 - c0) * 5),
                                          (double)(r1 - r0) * (hid * 3 + (c1 - c0) * 5));
            pl[0] = (uint32_t)r0, pl[1] = (uint32_t)r1, pl[2] = (uint32_t)g0, pl[3] = (uint32_t)g1;
            mrt_tiler_read(t, op_in(g, op, 0), box(r0, r1, 0, hid));
            mrt_tiler_read(t, op_in(g, op, 1), box(r0, r1, 0, hid));
            mrt_tiler_read(t, op_in(g, op, 2), box(c0, c1, 0, 1));
            mrt_tiler_write(t, op_out(g, op, 2), box(r0, r1, c0, c1), 0);
            mrt_tiler_write(t, op_out(g, op, 3), box(r0, r1, g0, g1), 0);
            mrt_tiler_write(t, op_out(g, op, 1), box(r0, r1, c0, c1), 1);
            mrt_tiler_write(t, op_out(g, op, 0), box(r0, r1, c0, c1), 1);
        }
    }
    return MRT_OK;
}

static void cpu(const mrt_cpu_tile *c) {
    const mrt_tensor *h = op_in(c->plan->g, c->op, 0);
    int64_t hid = h->dims[1];
    const uint16_t *hin = SLOT(c, 0, uint16_t), *res = SLOT(c, 1, uint16_t), *w = SLOT(c, 2, uint16_t);
    uint16_t *r_new = SLOT(c, 3, uint16_t), *x = SLOT(c, 4, uint16_t);
    uint8_t *x8 = SLOT(c, 5, uint8_t);
    float *sx = SLOT(c, 6, float);
    float eps = c->op->p.f[0];
    float xf[16384];
    const int64_t g0 = c->payload[2], g1 = c->payload[3], k0 = g0 * 128, k1 = g1 * 128; /* this slice's columns */
    for (int64_t m = c->payload[0]; m < c->payload[1]; m++) {
        double ss = 0;
        for (int64_t k = 0; k < hid; k++) {
            float r = mrt_round_bf16(mrt_bf16_to_f32(hin[m * hid + k]) + mrt_bf16_to_f32(res[m * hid + k]));
            if (k >= k0 && k < k1) r_new[m * hid + k] = mrt_f32_to_bf16(r);
            xf[k] = r;
            ss += (double)r * r;
        }
        float rs = mrt_rms_factor(ss, (int)hid, eps);
        for (int64_t k = k0; k < k1; k++) {
            xf[k] = mrt_bf16_to_f32(w[k]) * xf[k] * rs;
            x[m * hid + k] = mrt_f32_to_bf16(xf[k]);
        }
        for (int64_t kb = g0; kb < g1; kb++) {
            float amax = 0;
            for (int k = 0; k < 128; k++) amax = fmaxf(amax, fabsf(xf[kb * 128 + k]));
            float s = mrt_block_scale(amax);
            sx[m * (hid / 128) + kb] = s;
            for (int k = 0; k < 128; k++) x8[m * hid + kb * 128 + k] = mrt_f32_to_e4m3(xf[kb * 128 + k] / s);
        }
    }
}

const mrt_op_class mrt_op_add_rmsnorm_quant = {
    .name = "add_rmsnorm_quant", .opcode = MRT_OPC_ADD_RMSNORM_QUANT, .n_in = 3, .n_out = 4,
    .check = check, .default_cfg = default_cfg, .tile = tile, .cpu = cpu,
    .tokens = mrt_payload_rows,
};
