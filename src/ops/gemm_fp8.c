/* gemm_fp8: C = A . W^T with e4m3 A [M,K] (1x128 scales sA [M,K/128]) and e4m3 W [N,K]
 * (128x128 block scales sW [ceil(N/128), K/128]), fp32 accumulation with per-128-K-block
 * promotion: C[m,n] = sum_kb dot(A, W)[kb] * sA[m,kb] * sW[n/128,kb].
 * Split-K: each task writes an fp32 partial of its K range into op scratch; the group's
 * finalizer (the last split to finish) sums the partials in split order (deterministic)
 * and runs the epilogue (param i[0]) — the op's finalization fused after the GEMM:
 *
 *  QKV_A (B0): in  A=x8, sA=sx, W_A, sW_A, w_qn, w_kvn, pos, block_table, rope_cs
 *              out qr8 [M,q_lora] e4m3, sqr [M,q_lora/128], ssq [M,q_lora/128], mla_cache
 *              i: 1 q_lora, 2 kv_lora, 3 rope, 4 batch, 5 kv, 6 block_tokens; f: 0 eps.
 *              q columns finalize per 128-wide tile: qr8 = e4m3(w_qn * q_c / s') with
 *              s' the block scale of w_qn * q_c, and ssq = the block's sum of q_c^2: the
 *              row's RMSNorm factor commutes with block quantization, so consumers apply
 *              it (fold) and each q tile publishes alone (the article's e2 >= 16).
 *              The kv columns (kv_c | k_pe) finalize together: RMSNorm, quant, RoPE, cache.
 *  INDEX_K (B1): in A=x8, sA=sx, W_k, sW_k, ln_w, ln_b, pos, block_table, rope_cs
 *              out idx_cache; i: 4 batch, 5 kv, 6 block_tokens; f: 0 LayerNorm eps.
 *  Q_B (D0):   in A=qr8, sA=sqr, W_qb, sW_qb, ssq, pos, rope_cs; out q_nope, q_pe
 *              i: 1 heads, 2 nope, 3 rope; f: 0 eps of the q_a RMSNorm (the fold).
 *  INDEX_Q (D1): in A=qr8, sA=sqr, W_iq, sW_iq, ssq, gate (partials), pos, rope_cs
 *              out q8i [M, heads*dim] e4m3, wI [M, heads] f32; i: 1 heads, 2 dim, 3 rope.
 * Payload: m0 m1 n0 n1 kb0 kb1 split nsplit. Publications: 0 = the partial (op-internal),
 * 1 = the finalized outputs. */
#include <math.h>
#include <string.h>

#include "ops.h"

enum { P_M0, P_M1, P_N0, P_N1, P_KB0, P_KB1, P_SPLIT, P_NSPLIT };

static int epi(const mrt_op *op) { return op->p.i[0]; }

static int n_inputs(int e) { return e == MRT_EPI_Q_B ? 7 : e == MRT_EPI_INDEX_Q ? 8 : 9; }
static int n_outputs(int e) { return e == MRT_EPI_QKV_A ? 4 : e == MRT_EPI_INDEX_K ? 1 : 2; }

static mrt_status check(mrt_context *ctx, const mrt_graph *g, const mrt_op *op) {
    int e = epi(op);
    if (e < MRT_EPI_QKV_A || e > MRT_EPI_INDEX_Q)
        return mrt_fail(ctx, MRT_ERR_INVALID, "op %s (gemm_fp8): unknown epilogue %d", op->name, e);
    if (op->n_in != n_inputs(e) || op->n_out != n_outputs(e))
        return mrt_fail(ctx, MRT_ERR_GRAPH, "op %s (gemm_fp8): %d inputs and %d outputs, its epilogue takes %d and %d",
                        op->name, op->n_in, op->n_out, n_inputs(e), n_outputs(e));
    const mrt_tensor *a = op_in(g, op, 0), *w = op_in(g, op, 2);
    mrt_status s;
    if ((s = mrt_expect(ctx, op, a, MRT_E4M3, 2, -1, -1, -1)) || (s = mrt_expect(ctx, op, w, MRT_E4M3, 2, -1, -1, -1)))
        return s;
    int64_t m = a->dims[0], k = a->dims[1], n = w->dims[0];
    if (w->dims[1] != k)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s (gemm_fp8): input %s has %lld columns, weight %s has %lld", op->name,
                        a->name, (long long)k, w->name, (long long)w->dims[1]);
    if (k % 128 || n % 64)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s (gemm_fp8): K = %lld must be a multiple of 128 and N = %lld of 64",
                        op->name, (long long)k, (long long)n);
    if ((s = mrt_expect(ctx, op, op_in(g, op, 1), MRT_F32, 2, m, k / 128, -1)) ||
        (s = mrt_expect(ctx, op, op_in(g, op, 3), MRT_F32, 2, ceil_div(n, 128), k / 128, -1)))
        return s;
    const int32_t *ip = op->p.i;
    switch (e) {
    case MRT_EPI_QKV_A:
        if (ip[1] % 128 || ip[2] % 128 || ip[1] + ip[2] + ip[3] != n || ip[3] % 2 || ip[4] < 1 || m % ip[4] || ip[6] < 1)
            return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s: N = %lld is not q_lora %d + kv_lora %d + rope %d (multiples of "
                            "128, even rope) or batch %d does not divide M = %lld", op->name, (long long)n, ip[1],
                            ip[2], ip[3], ip[4], (long long)m);
        if ((s = mrt_expect(ctx, op, op_in(g, op, 4), MRT_BF16, 1, ip[1], -1, -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, 5), MRT_BF16, 1, ip[2], -1, -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, 6), MRT_I32, 1, m, -1, -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, 7), MRT_I32, 2, ip[4], ceil_div(ip[5], ip[6]), -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, 8), MRT_F32, 2, ip[5], ip[3], -1)) ||
            (s = mrt_expect(ctx, op, op_out(g, op, 0), MRT_E4M3, 2, m, ip[1], -1)) ||
            (s = mrt_expect(ctx, op, op_out(g, op, 1), MRT_F32, 2, m, ip[1] / 128, -1)) ||
            (s = mrt_expect(ctx, op, op_out(g, op, 2), MRT_F32, 2, m, ip[1] / 128, -1)) ||
            (s = mrt_expect(ctx, op, op_out(g, op, 3), MRT_U8, 2, -1, (int64_t)ip[6] * (ip[2] + ip[2] / 32 + 2 * ip[3]), -1)))
            return s;
        if (op_out(g, op, 3)->dims[0] < ip[4] * ceil_div(ip[5], ip[6]))
            return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s: cache %s has %lld blocks, the step needs %lld", op->name,
                            op_out(g, op, 3)->name, (long long)op_out(g, op, 3)->dims[0],
                            (long long)(ip[4] * ceil_div(ip[5], ip[6])));
        break;
    case MRT_EPI_INDEX_K:
        if (n != 128 || ip[4] < 1 || m % ip[4] || ip[6] < 1 || ip[5] < m / ip[4])
            return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s: indexer key width %lld (128 supported), batch %d, M %lld, kv %d",
                            op->name, (long long)n, ip[4], (long long)m, ip[5]);
        if ((s = mrt_expect(ctx, op, op_in(g, op, 4), MRT_BF16, 1, n, -1, -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, 5), MRT_BF16, 1, n, -1, -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, 6), MRT_I32, 1, m, -1, -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, 7), MRT_I32, 2, ip[4], ceil_div(ip[5], ip[6]), -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, 8), MRT_F32, 2, ip[5], 64, -1)) ||
            (s = mrt_expect(ctx, op, op_out(g, op, 0), MRT_U8, 2, -1, (int64_t)ip[6] * (n + 4), -1)))
            return s;
        break;
    case MRT_EPI_Q_B:
    case MRT_EPI_INDEX_Q: {
        int64_t width = e == MRT_EPI_Q_B ? ip[2] + ip[3] : ip[2];
        if (ip[1] * width != n || ip[3] % 2 || ip[3] > (e == MRT_EPI_Q_B ? 64 : ip[2]))
            return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s: N = %lld is not %d heads x %lld", op->name, (long long)n, ip[1],
                            (long long)width);
        if ((s = mrt_expect(ctx, op, op_in(g, op, 4), MRT_F32, 2, m, k / 128, -1))) return s;
        int pi = e == MRT_EPI_Q_B ? 5 : 6;
        if ((s = mrt_expect(ctx, op, op_in(g, op, pi), MRT_I32, 1, m, -1, -1)) ||
            (s = mrt_expect(ctx, op, op_in(g, op, pi + 1), MRT_F32, 2, -1, ip[3], -1)))
            return s;
        if (e == MRT_EPI_Q_B) {
            if ((s = mrt_expect(ctx, op, op_out(g, op, 0), MRT_BF16, 3, m, ip[1], ip[2])) ||
                (s = mrt_expect(ctx, op, op_out(g, op, 1), MRT_BF16, 3, m, ip[1], ip[3])))
                return s;
        } else if ((s = mrt_expect(ctx, op, op_in(g, op, 5), MRT_F32, 2, m, ip[1], -1)) ||
                   (s = mrt_expect(ctx, op, op_out(g, op, 0), MRT_E4M3, 3, m, ip[1], ip[2])) ||
                   (s = mrt_expect(ctx, op, op_out(g, op, 1), MRT_F32, 2, m, ip[1], -1)))
            return s;
        break;
    }
    }
    return MRT_OK;
}

/* Default tiling (docs/TILING.md): these GEMMs stream weights, so one M tile holds all
 * tokens up to 128 (weights are read once per M tile), the N tile is 128 (one weight-scale
 * block), and K is split to fill the workers once with tasks of at least 48 KiB
 * (mrt_default_split; at GLM-5 size on 132 workers B0 21 x 6, D0 128 x 1, D1 32 x 4, B1 16;
 * beside C0 and B1, plan.c share_workers sizes B0 for 100 workers: 21 x 4).
 * Measured on the H200 (bench/gemm/NOTES.md), the standalone kernels were fastest near these
 * splits, and the serial and cmp executors take the plan's split. */
#ifndef MRT_FP8_MIN_TASK_KIB /* -DMRT_FP8_MIN_TASK_KIB=N (C flags). 96 (D1 32 x 2, B1 8) lost in every
                                executor: serial +1.7 us, mega 130-133 (H200, session 10 run 1) */
#define MRT_FP8_MIN_TASK_KIB 48
#endif
static mrt_tile_cfg default_cfg(const mrt_graph *g, const mrt_op *op, int workers) {
    const mrt_tensor *a = op_in(g, op, 0), *w = op_in(g, op, 2);
    int64_t m = a->dims[0], k = a->dims[1], n = w->dims[0];
    mrt_tile_cfg c = {.block_m = (int)(m <= 128 ? m : 128), .block_n = 128};
    int64_t tiles = ceil_div(m, c.block_m) * ceil_div(n, 128);
    c.split = mrt_default_split(k / 128, tiles, 128.0 * (double)k, MRT_FP8_MIN_TASK_KIB * 1024.0, workers);
    c.tasks = (int)tiles * c.split;
    return c;
}

/* The columns finalized together with n-tile [n0, n1). */
static void final_unit(const mrt_op *op, int64_t n, int64_t n0, int64_t n1, int64_t *u0, int64_t *u1) {
    *u0 = n0, *u1 = n1;
    if (epi(op) == MRT_EPI_QKV_A && n0 >= op->p.i[1]) *u0 = op->p.i[1], *u1 = n;
    if (epi(op) == MRT_EPI_INDEX_K) *u0 = 0, *u1 = n;
}

/* The finalizer's declared reads and writes for rows [m0, m1), columns [u0, u1). */
static void final_regions(mrt_tiler *t, const mrt_graph *g, const mrt_op *op, int64_t m0, int64_t m1, int64_t u0,
                          int64_t u1) {
    const int32_t *ip = op->p.i;
    int64_t m = op_in(g, op, 0)->dims[0], k = op_in(g, op, 0)->dims[1];
    switch (epi(op)) {
    case MRT_EPI_QKV_A:
        if (u0 < ip[1]) {
            mrt_tiler_read(t, op_in(g, op, 4), box(u0, u1, 0, 1));
            mrt_tiler_write(t, op_out(g, op, 0), box(m0, m1, u0, u1), 1);
            mrt_tiler_write(t, op_out(g, op, 1), box(m0, m1, u0 / 128, ceil_div(u1, 128)), 1);
            mrt_tiler_write(t, op_out(g, op, 2), box(m0, m1, u0 / 128, ceil_div(u1, 128)), 1);
        } else {
            mrt_step_geom s = mrt_geom(m, ip[4], ip[5], ip[6]);
            mrt_tiler_read(t, op_in(g, op, 5), box(0, ip[2], 0, 1));
            mrt_tiler_read(t, op_in(g, op, 6), box(m0, m1, 0, 1));
            mrt_tiler_cache_rows(t, op_out(g, op, 3), &s, m0, m1, ip[2] + ip[2] / 32 + 2 * ip[3], 1);
        }
        break;
    case MRT_EPI_INDEX_K: {
        mrt_step_geom s = mrt_geom(m, ip[4], ip[5], ip[6]);
        mrt_tiler_read(t, op_in(g, op, 4), box(0, 128, 0, 1));
        mrt_tiler_read(t, op_in(g, op, 6), box(m0, m1, 0, 1));
        mrt_tiler_cache_rows(t, op_out(g, op, 0), &s, m0, m1, 128 + 4, 1);
        break;
    }
    case MRT_EPI_Q_B: {
        int64_t width = ip[2] + ip[3];
        mrt_tiler_read(t, op_in(g, op, 4), box(m0, m1, 0, k / 128));
        for (int64_t h = u0 / width; h * width < u1; h++) {
            int64_t c0 = max64(u0, h * width) - h * width, c1 = min64(u1, (h + 1) * width) - h * width;
            if (c0 < ip[2]) mrt_tiler_write(t, op_out(g, op, 0), box(m0, m1, h * ip[2] + c0, h * ip[2] + min64(c1, ip[2])), 1);
            if (c1 > ip[2])
                mrt_tiler_write(t, op_out(g, op, 1),
                                box(m0, m1, h * ip[3] + max64(c0, ip[2]) - ip[2], h * ip[3] + c1 - ip[2]), 1);
        }
        break;
    }
    case MRT_EPI_INDEX_Q: {
        int64_t h0 = u0 / ip[2], h1 = u1 / ip[2];
        mrt_tiler_read(t, op_in(g, op, 4), box(m0, m1, 0, k / 128));
        mrt_tiler_read(t, op_in(g, op, 5), box(m0, m1, h0, h1));
        mrt_tiler_write(t, op_out(g, op, 0), box(m0, m1, u0, u1), 1);
        mrt_tiler_write(t, op_out(g, op, 1), box(m0, m1, h0, h1), 1);
        break;
    }
    }
    (void)m;
}

static mrt_status tile(mrt_tiler *t, const mrt_graph *g, const mrt_op *op, mrt_tile_cfg cfg) {
    const mrt_tensor *a = op_in(g, op, 0), *w = op_in(g, op, 2);
    int64_t m = a->dims[0], k = a->dims[1], n = w->dims[0], kblocks = k / 128;
    if (cfg.block_m < 1 || cfg.block_m > 256 || cfg.block_n < 64 || cfg.block_n % 64 || cfg.block_n > 4096 ||
        cfg.split < 1)
        return mrt_fail(g->ctx, MRT_ERR_INVALID,
                        "op %s: tiling block_m %d (1..256) block_n %d (64..4096, a multiple of 64) split %d",
                        op->name, cfg.block_m, cfg.block_n, cfg.split);
    int e = epi(op);
    if ((e == MRT_EPI_QKV_A && op->p.i[1] % cfg.block_n) || (e == MRT_EPI_INDEX_Q && cfg.block_n != op->p.i[2]) ||
        (e == MRT_EPI_Q_B && cfg.block_n % 2))
        return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: block_n %d does not fit its epilogue's finalization units",
                        op->name, cfg.block_n);
    int64_t kbs, nsplit = mrt_split_blocks(kblocks, cfg.split, &kbs);
    int part = mrt_tiler_scratch(t, "part", MRT_F32, nsplit * m, n);
    const mrt_tensor *pt = mrt_tiler_tensor(t, part);
    for (int64_t m0 = 0; m0 < m; m0 += cfg.block_m) {
        int64_t m1 = min64(m, m0 + cfg.block_m);
        for (int64_t n0 = 0; n0 < n;) {
            int64_t u0, u1;
            final_unit(op, n, n0, min64(n, n0 + cfg.block_n), &u0, &u1);
            int64_t tiles = ceil_div(u1 - u0, cfg.block_n), members = tiles * nsplit;
            if (members > 1) mrt_tiler_group(t, (int)members, 1u << 1);
            for (int64_t nt = u0; nt < u1; nt += cfg.block_n) {
                int64_t nt1 = min64(u1, nt + cfg.block_n);
                for (int64_t s = 0; s < nsplit; s++) {
                    int64_t kb0 = s * kbs, kb1 = min64(kblocks, kb0 + kbs);
                    double bytes = (double)(nt1 - nt) * (kb1 - kb0) * 128 + (double)(m1 - m0) * (kb1 - kb0) * 132;
                    uint32_t *pl = mrt_tiler_task(t, bytes, 2.0 * (m1 - m0) * (nt1 - nt) * (kb1 - kb0) * 128);
                    uint32_t v[8] = {(uint32_t)m0, (uint32_t)m1, (uint32_t)nt, (uint32_t)nt1,
                                     (uint32_t)kb0, (uint32_t)kb1, (uint32_t)s, (uint32_t)nsplit};
                    memcpy(pl, v, sizeof v);
                    mrt_tiler_read(t, a, box(m0, m1, kb0 * 128, kb1 * 128));
                    mrt_tiler_read(t, op_in(g, op, 1), box(m0, m1, kb0, kb1));
                    mrt_tiler_read(t, w, box(nt, nt1, kb0 * 128, kb1 * 128));
                    mrt_tiler_read(t, op_in(g, op, 3), box(nt / 128, ceil_div(nt1, 128), kb0, kb1));
                    mrt_tiler_write(t, pt, box(s * m + m0, s * m + m1, nt, nt1), 0);
                    final_regions(t, g, op, m0, m1, u0, u1);
                }
            }
            n0 = u1;
        }
    }
    return MRT_OK;
}

static mrt_status check_inputs(mrt_context *ctx, const mrt_plan *p, const mrt_op *op, void *const *slot) {
    int e = epi(op);
    if (e != MRT_EPI_QKV_A && e != MRT_EPI_INDEX_K) return MRT_OK;
    const int32_t *ip = op->p.i;
    mrt_step_geom s = mrt_geom(op_in(p->g, op, 0)->dims[0], ip[4], ip[5], ip[6]);
    const mrt_tensor *cache = op_out(p->g, op, e == MRT_EPI_QKV_A ? 3 : 0);
    return mrt_check_step_inputs(ctx, op, &s, slot[6], slot[7], cache->dims[0]);
}

/* ---- CPU reference ----------------------------------------------------------------------- */

static void cpu_main(const mrt_cpu_tile *c) {
    const mrt_tensor *a = op_in(c->plan->g, c->op, 0), *w = op_in(c->plan->g, c->op, 2);
    int64_t m = a->dims[0], k = a->dims[1], n = w->dims[0], kblocks = k / 128;
    const uint32_t *pl = c->payload;
    const uint8_t *A = SLOT(c, 0, uint8_t), *W = SLOT(c, 2, uint8_t);
    const float *sA = SLOT(c, 1, float), *sW = SLOT(c, 3, float);
    float *part = SLOT(c, c->op->n_in + c->op->n_out, float);
    float wrow[128], arow[256][128];
    int64_t rows = pl[P_M1] - pl[P_M0];
    float *acc = part + (int64_t)pl[P_SPLIT] * m * n;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t col = pl[P_N0]; col < pl[P_N1]; col++) acc[(pl[P_M0] + r) * n + col] = 0;
    for (int64_t kb = pl[P_KB0]; kb < pl[P_KB1]; kb++) {
        for (int64_t r = 0; r < rows; r++)
            for (int i = 0; i < 128; i++) arow[r][i] = mrt_e4m3_lut[A[(pl[P_M0] + r) * k + kb * 128 + i]];
        for (int64_t col = pl[P_N0]; col < pl[P_N1]; col++) {
            for (int i = 0; i < 128; i++) wrow[i] = mrt_e4m3_lut[W[col * k + kb * 128 + i]];
            float sw = sW[(col / 128) * kblocks + kb];
            for (int64_t r = 0; r < rows; r++) {
                const float *ar = arow[r]; /* rows <= 256: tile() enforces block_m */
                float dot = 0;
                for (int i = 0; i < 128; i++) dot += ar[i] * wrow[i];
                acc[(pl[P_M0] + r) * n + col] += dot * sA[(pl[P_M0] + r) * kblocks + kb] * sw;
            }
        }
    }
}

/* Sum of the split partials in split order, for rows [m0,m1) and columns [u0,u1). */
static float reduced(const float *part, int64_t m, int64_t n, int nsplit, int64_t row, int64_t col) {
    float v = 0;
    for (int s = 0; s < nsplit; s++) v += part[(int64_t)s * m * n + row * n + col];
    return v;
}

/* The q_a RMSNorm factor of a row, from the producer's per-block sums of squares. */
static float fold_factor(const float *ssq, int64_t row, int64_t blocks, int64_t width, float eps) {
    double ss = 0;
    for (int64_t b = 0; b < blocks; b++) ss += ssq[row * blocks + b];
    return mrt_rms_factor(ss, (int)width, eps);
}

static void quant_block(const float *v, int len, uint8_t *codes, float *scale) {
    float amax = 0;
    for (int i = 0; i < len; i++) amax = fmaxf(amax, fabsf(v[i]));
    *scale = mrt_block_scale(amax);
    for (int i = 0; i < len; i++) codes[i] = mrt_f32_to_e4m3(v[i] / *scale);
}

static void rope_row(float *v, int rope, const float *cs_row) {
    for (int i = 0; i < rope / 2; i++) mrt_rope_pair(&v[2 * i], &v[2 * i + 1], cs_row[i], cs_row[rope / 2 + i]);
}

static void cpu_final(const mrt_cpu_tile *c) {
    const mrt_graph *g = c->plan->g;
    const mrt_op *op = c->op;
    const mrt_tensor *a = op_in(g, op, 0), *w = op_in(g, op, 2);
    int64_t m = a->dims[0], k = a->dims[1], n = w->dims[0];
    const uint32_t *pl = c->payload;
    const int32_t *ip = op->p.i;
    const float *part = SLOT(c, op->n_in + op->n_out, float);
    int nsplit = (int)pl[P_NSPLIT];
    int64_t u0, u1;
    final_unit(op, n, pl[P_N0], pl[P_N1], &u0, &u1);
    float v[16384];
    for (int64_t row = pl[P_M0]; row < pl[P_M1]; row++) {
        switch (epi(op)) {
        case MRT_EPI_QKV_A:
            if (u0 < ip[1]) {
                const uint16_t *wq = SLOT(c, 4, uint16_t);
                uint8_t *qr8 = SLOT(c, 9, uint8_t);
                float *sqr = SLOT(c, 10, float), *ssq = SLOT(c, 11, float);
                for (int64_t b0 = u0; b0 < u1; b0 += 128) {
                    double ss = 0;
                    for (int i = 0; i < 128; i++) {
                        float q = mrt_round_bf16(reduced(part, m, n, nsplit, row, b0 + i));
                        ss += (double)q * q;
                        v[i] = mrt_bf16_to_f32(wq[b0 + i]) * q;
                    }
                    quant_block(v, 128, qr8 + row * ip[1] + b0, &sqr[row * (ip[1] / 128) + b0 / 128]);
                    ssq[row * (ip[1] / 128) + b0 / 128] = (float)ss;
                }
            } else {
                const uint16_t *wkv = SLOT(c, 5, uint16_t);
                const int32_t *pos = SLOT(c, 6, int32_t), *bt = SLOT(c, 7, int32_t);
                const float *cs = SLOT(c, 8, float);
                uint8_t *cache = SLOT(c, 12, uint8_t);
                int kvl = ip[2], rope = ip[3], entry = kvl + kvl / 32 + 2 * rope;
                double ss = 0;
                for (int i = 0; i < kvl; i++) {
                    v[i] = mrt_round_bf16(reduced(part, m, n, nsplit, row, ip[1] + i));
                    ss += (double)v[i] * v[i];
                }
                float rs = mrt_rms_factor(ss, kvl, op->p.f[0]);
                for (int i = 0; i < kvl; i++) v[i] = mrt_bf16_to_f32(wkv[i]) * v[i] * rs;
                float pe[64];
                for (int i = 0; i < rope; i++) pe[i] = mrt_round_bf16(reduced(part, m, n, nsplit, row, ip[1] + kvl + i));
                rope_row(pe, rope, cs + (int64_t)pos[row] * rope);
                mrt_step_geom s = mrt_geom(m, ip[4], ip[5], ip[6]);
                int64_t blk, off;
                mrt_cache_slot(&s, bt, row, pos[row], &blk, &off);
                uint8_t *e = cache + (blk * s.block_tokens + off) * entry;
                for (int b = 0; b < kvl / 128; b++) {
                    float sc;
                    quant_block(v + b * 128, 128, e + b * 128, &sc);
                    memcpy(e + kvl + 4 * b, &sc, 4);
                }
                for (int i = 0; i < rope; i++) {
                    uint16_t h = mrt_f32_to_bf16(pe[i]);
                    memcpy(e + kvl + kvl / 32 + 2 * i, &h, 2);
                }
            }
            break;
        case MRT_EPI_INDEX_K: {
            const uint16_t *lw = SLOT(c, 4, uint16_t), *lb = SLOT(c, 5, uint16_t);
            const int32_t *pos = SLOT(c, 6, int32_t), *bt = SLOT(c, 7, int32_t);
            const float *cs = SLOT(c, 8, float);
            uint8_t *cache = SLOT(c, 9, uint8_t);
            double mean = 0, var = 0;
            for (int i = 0; i < 128; i++) mean += (v[i] = mrt_round_bf16(reduced(part, m, n, nsplit, row, i)));
            mean /= 128.0;
            for (int i = 0; i < 128; i++) var += (v[i] - mean) * (v[i] - mean);
            float mf = (float)mean, rs = mrt_ln_factor(var / 128.0, op->p.f[0]);
            for (int i = 0; i < 128; i++) v[i] = (v[i] - mf) * rs * mrt_bf16_to_f32(lw[i]) + mrt_bf16_to_f32(lb[i]);
            rope_row(v, 64, cs + (int64_t)pos[row] * 64);
            float amax = 0;
            for (int i = 0; i < 128; i++) amax = fmaxf(amax, fabsf(v[i]));
            float ks = mrt_pow2_scale(amax);
            mrt_step_geom s = mrt_geom(m, ip[4], ip[5], ip[6]);
            int64_t blk, off;
            mrt_cache_slot(&s, bt, row, pos[row], &blk, &off);
            uint8_t *base = cache + blk * s.block_tokens * (128 + 4);
            for (int i = 0; i < 128; i++) base[off * 128 + i] = mrt_f32_to_e4m3(v[i] / ks);
            memcpy(base + s.block_tokens * 128 + off * 4, &ks, 4);
            break;
        }
        case MRT_EPI_Q_B: {
            const float *ssq = SLOT(c, 4, float), *cs = SLOT(c, 6, float);
            const int32_t *pos = SLOT(c, 5, int32_t);
            uint16_t *q_nope = SLOT(c, 7, uint16_t), *q_pe = SLOT(c, 8, uint16_t);
            int heads = ip[1], nope = ip[2], rope = ip[3], width = nope + rope;
            float r = fold_factor(ssq, row, k / 128, k, op->p.f[0]);
            for (int64_t col = u0; col < u1; col++) v[col - u0] = mrt_round_bf16(reduced(part, m, n, nsplit, row, col) * r);
            for (int64_t col = u0; col < u1; col++) {
                int64_t h = col / width, d = col % width;
                if (d < nope) {
                    q_nope[(row * heads + h) * nope + d] = mrt_f32_to_bf16(v[col - u0]);
                } else if ((d - nope) % 2 == 0) { /* a pair: block_n is even and heads are even */
                    float x = v[col - u0], y = v[col - u0 + 1];
                    int i = (int)(d - nope) / 2;
                    const float *cr = cs + (int64_t)pos[row] * rope;
                    mrt_rope_pair(&x, &y, cr[i], cr[rope / 2 + i]);
                    q_pe[(row * heads + h) * rope + (d - nope)] = mrt_f32_to_bf16(x);
                    q_pe[(row * heads + h) * rope + (d - nope) + 1] = mrt_f32_to_bf16(y);
                }
            }
            break;
        }
        case MRT_EPI_INDEX_Q: {
            const float *ssq = SLOT(c, 4, float), *gate = SLOT(c, 5, float), *cs = SLOT(c, 7, float);
            const int32_t *pos = SLOT(c, 6, int32_t);
            uint8_t *q8 = SLOT(c, 8, uint8_t);
            float *wI = SLOT(c, 9, float);
            int heads = ip[1], dim = ip[2], rope = ip[3];
            int64_t h = u0 / dim;
            float r = fold_factor(ssq, row, k / 128, k, op->p.f[0]);
            for (int i = 0; i < dim; i++) v[i] = mrt_round_bf16(reduced(part, m, n, nsplit, row, u0 + i) * r);
            rope_row(v, rope, cs + (int64_t)pos[row] * rope);
            float amax = 0;
            for (int i = 0; i < dim; i++) amax = fmaxf(amax, fabsf(v[i]));
            float qs = mrt_pow2_scale(amax);
            for (int i = 0; i < dim; i++) q8[(row * heads + h) * dim + i] = mrt_f32_to_e4m3(v[i] / qs);
            float gsum = 0;
            for (int s = 0; s < c->partials[5]; s++) gsum += gate[((int64_t)s * m + row) * heads + h];
            wI[row * heads + h] = gsum * qs * (float)(1.0 / sqrt((double)dim)) * (float)(1.0 / sqrt((double)heads));
            break;
        }
        }
    }
}

static void cpu(const mrt_cpu_tile *c) {
    if (c->phase == MRT_PHASE_MAIN) cpu_main(c);
    else cpu_final(c);
}

const mrt_op_class mrt_op_gemm_fp8 = {
    .name = "gemm_fp8", .opcode = MRT_OPC_GEMM_FP8, .n_in = -1, .n_out = -1, .check = check,
    .default_cfg = default_cfg, .tile = tile, .check_inputs = check_inputs, .cpu = cpu, .has_final = true,
    .tokens = mrt_payload_rows,
};
