/* index_logits (E1): logit[t, j] = sum_h wI[t,h] * relu(q8[t,h] . k8[j]) * ks[j] for the
 * keys j <= pos[t] of t's request, -inf beyond. Each task takes one request and a chunk
 * of its keys for all of the request's tokens, so every key is read once per request.
 * in: q8i [M,H,D] e4m3, wI [M,H] f32, idx_cache [blocks, bt*(D+4)] u8, pos [M] i32,
 *     block_table [B, blocks_per_req] i32; out: logits [M, kv] f32.
 * params: i[4] batch, i[5] kv, i[6] block_tokens. Payload: b j0 j1 t0 t1. Publication 0. */
#include <math.h>
#include <string.h>

#include "ops.h"

static mrt_status check(mrt_context *ctx, const mrt_graph *g, const mrt_op *op) {
    const mrt_tensor *q = op_in(g, op, 0);
    const int32_t *ip = op->p.i;
    mrt_status s;
    if ((s = mrt_expect(ctx, op, q, MRT_E4M3, 3, -1, -1, -1))) return s;
    int64_t m = q->dims[0], heads = q->dims[1], d = q->dims[2];
    if (heads > 64 || d > 128)
        return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s: %lld heads of %lld (at most 64 of 128 supported)", op->name,
                        (long long)heads, (long long)d);
    if (ip[4] < 1 || m % ip[4] || ip[6] < 1 || ip[5] < m / ip[4])
        return mrt_fail(ctx, MRT_ERR_SHAPE, "op %s: batch %d must divide M = %lld and kv %d hold its %lld new tokens",
                        op->name, ip[4], (long long)m, ip[5], (long long)(ip[4] > 0 ? m / ip[4] : 0));
    if ((s = mrt_expect(ctx, op, op_in(g, op, 1), MRT_F32, 2, m, heads, -1)) ||
        (s = mrt_expect(ctx, op, op_in(g, op, 2), MRT_U8, 2, -1, (int64_t)ip[6] * (d + 4), -1)) ||
        (s = mrt_expect(ctx, op, op_in(g, op, 3), MRT_I32, 1, m, -1, -1)) ||
        (s = mrt_expect(ctx, op, op_in(g, op, 4), MRT_I32, 2, ip[4], ceil_div(ip[5], ip[6]), -1)) ||
        (s = mrt_expect(ctx, op, op_out(g, op, 0), MRT_F32, 2, m, ip[5], -1)))
        return s;
    return MRT_OK;
}

/* 128 keys (17 KB of keys) a task, doubled while there would be more than two tasks per
 * worker: long contexts get longer chunks, not thousands of tiny tasks. (256 keys left
 * 64 tasks for 132 workers at KV=8192, and each took ~24 us in the megakernel, on the
 * critical path: H200, 2026-11-29.) */
static mrt_tile_cfg default_cfg(const mrt_graph *g, const mrt_op *op, int workers) {
    (void)g;
    mrt_tile_cfg c = {.chunk = 128};
    while ((int64_t)op->p.i[4] * ceil_div(op->p.i[5], c.chunk) > 2 * (int64_t)workers) c.chunk *= 2;
    return c;
}

static mrt_status tile(mrt_tiler *t, const mrt_graph *g, const mrt_op *op, mrt_tile_cfg cfg) {
    const mrt_tensor *q = op_in(g, op, 0);
    const int32_t *ip = op->p.i;
    mrt_step_geom s = mrt_geom(q->dims[0], ip[4], ip[5], ip[6]);
    int64_t heads = q->dims[1], d = q->dims[2];
    if (cfg.chunk < 1) return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: chunk %d", op->name, cfg.chunk);
    for (int64_t b = 0; b < s.batch; b++)
        for (int64_t j0 = 0; j0 < s.kv; j0 += cfg.chunk) {
            int64_t j1 = min64(s.kv, j0 + cfg.chunk), t0 = b * s.n, t1 = t0 + s.n;
            uint32_t *pl = mrt_tiler_task(t, (double)(j1 - j0) * (d + 4) + (double)s.n * heads * (d + 4),
                                            2.0 * s.n * heads * d * (j1 - j0));
            uint32_t v[5] = {(uint32_t)b, (uint32_t)j0, (uint32_t)j1, (uint32_t)t0, (uint32_t)t1};
            memcpy(pl, v, sizeof v);
            mrt_tiler_read(t, q, box(t0, t1, 0, heads * d));
            mrt_tiler_read(t, op_in(g, op, 1), box(t0, t1, 0, heads));
            mrt_tiler_read(t, op_in(g, op, 2), box(b * s.kv + j0, b * s.kv + j1, 0, d + 4));
            mrt_tiler_write(t, op_out(g, op, 0), box(t0, t1, j0, j1), 0);
        }
    return MRT_OK;
}

static mrt_status check_inputs(mrt_context *ctx, const mrt_plan *p, const mrt_op *op, void *const *slot) {
    const int32_t *ip = op->p.i;
    mrt_step_geom s = mrt_geom(op_in(p->g, op, 0)->dims[0], ip[4], ip[5], ip[6]);
    return mrt_check_step_inputs(ctx, op, &s, slot[3], slot[4], op_in(p->g, op, 2)->dims[0]);
}

static void cpu(const mrt_cpu_tile *c) {
    const mrt_tensor *q = op_in(c->plan->g, c->op, 0);
    const int32_t *ip = c->op->p.i;
    mrt_step_geom s = mrt_geom(q->dims[0], ip[4], ip[5], ip[6]);
    int64_t heads = q->dims[1], d = q->dims[2], bpr = ceil_div(s.kv, s.block_tokens);
    int64_t blk_bytes = s.block_tokens * (d + 4);
    const uint8_t *Q = SLOT(c, 0, uint8_t), *cache = SLOT(c, 2, uint8_t);
    const float *wI = SLOT(c, 1, float);
    const int32_t *pos = SLOT(c, 3, int32_t), *bt = SLOT(c, 4, int32_t);
    float *logits = SLOT(c, 5, float);
    int64_t b = c->payload[0], j0 = c->payload[1], j1 = c->payload[2], t0 = c->payload[3], t1 = c->payload[4];
    float qf[64][128], kf[128];
    for (int64_t t = t0; t < t1; t++) {
        for (int64_t h = 0; h < heads; h++)
            for (int64_t i = 0; i < d; i++) qf[h][i] = mrt_e4m3_lut[Q[(t * heads + h) * d + i]];
        for (int64_t j = j0; j < j1; j++) {
            if (j > pos[t]) {
                logits[t * s.kv + j] = -INFINITY;
                continue;
            }
            const uint8_t *base = cache + (int64_t)bt[b * bpr + j / s.block_tokens] * blk_bytes;
            int64_t off = j % s.block_tokens;
            for (int64_t i = 0; i < d; i++) kf[i] = mrt_e4m3_lut[base[off * d + i]];
            float ks;
            memcpy(&ks, base + s.block_tokens * d + off * 4, 4);
            float acc = 0;
            for (int64_t h = 0; h < heads; h++) {
                float dot = 0;
                for (int64_t i = 0; i < d; i++) dot += qf[h][i] * kf[i];
                acc += wI[t * heads + h] * fmaxf(dot, 0.0f);
            }
            logits[t * s.kv + j] = acc * ks;
        }
    }
}

/* a tile's tokens: its request's rows t0 .. t1 (payload b j0 j1 t0 t1), each scoring its keys */
static int tokens(const uint32_t *pl) { return (int)(pl[4] - pl[3]); }

const mrt_op_class mrt_op_index_logits = {
    .name = "index_logits", .opcode = MRT_OPC_INDEX_LOGITS, .n_in = 5, .n_out = 1, .check = check,
    .default_cfg = default_cfg, .tile = tile, .check_inputs = check_inputs, .cpu = cpu, .tokens = tokens,
};
