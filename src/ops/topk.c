/* topk (F1): the k largest finite logits of each row (of equal logits, the lower indices) as
 * logical key indices in ascending order, -1 padded. Index order: the set is what sparse
 * attention needs, ascending indices read the cache in order, and the GPU needs no sort to
 * produce it (docs/NUMERICS.md). in: logits [M, kv] f32;
 * out: idx [M, k] i32 (k = i[0]). Tiles: block_m rows. Payload: r0 r1. Publication 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"

static mrt_status check(mrt_context *ctx, const mrt_graph *g, const mrt_op *op) {
    const mrt_tensor *l = op_in(g, op, 0);
    mrt_status s;
    if ((s = mrt_expect(ctx, op, l, MRT_F32, 2, -1, -1, -1))) return s;
    if (op->p.i[0] < 1)
        return mrt_fail(ctx, MRT_ERR_INVALID, "op %s (topk): k = %d must be >= 1", op->name, op->p.i[0]);
    return mrt_expect(ctx, op, op_out(g, op, 0), MRT_I32, 2, l->dims[0], op->p.i[0], -1);
}

static mrt_tile_cfg default_cfg(const mrt_graph *g, const mrt_op *op, int workers) {
    (void)g, (void)op, (void)workers;
    mrt_tile_cfg c = {.block_m = 1};
    return c;
}

static mrt_status tile(mrt_tiler *t, const mrt_graph *g, const mrt_op *op, mrt_tile_cfg cfg) {
    const mrt_tensor *l = op_in(g, op, 0);
    int64_t m = l->dims[0], kv = l->dims[1];
    if (cfg.block_m < 1) return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: block_m %d", op->name, cfg.block_m);
    for (int64_t r0 = 0; r0 < m; r0 += cfg.block_m) {
        int64_t r1 = min64(m, r0 + cfg.block_m);
        uint32_t *pl = mrt_tiler_task(t, (double)(r1 - r0) * kv * 4);
        pl[0] = (uint32_t)r0, pl[1] = (uint32_t)r1;
        mrt_tiler_read(t, l, box(r0, r1, 0, kv));
        mrt_tiler_write(t, op_out(g, op, 0), box(r0, r1, 0, op->p.i[0]), 0);
    }
    return MRT_OK;
}

typedef struct cand {
    float v;
    int32_t j;
} cand;

static int by_logit(const void *a, const void *b) {
    const cand *x = a, *y = b;
    if (x->v != y->v) return x->v < y->v ? 1 : -1;
    return (x->j > y->j) - (x->j < y->j);
}
static int by_index(const void *a, const void *b) {
    const cand *x = a, *y = b;
    return (x->j > y->j) - (x->j < y->j);
}

static void cpu(const mrt_cpu_tile *c) {
    const mrt_tensor *l = op_in(c->plan->g, c->op, 0);
    int64_t kv = l->dims[1], k = c->op->p.i[0];
    const float *L = SLOT(c, 0, float);
    int32_t *out = SLOT(c, 1, int32_t);
    cand *cs = malloc(sizeof(cand) * (size_t)kv);
    if (!cs) { /* no memory: leave the row poisoned; the comparison against the reference fails */
        return;
    }
    for (int64_t r = c->payload[0]; r < c->payload[1]; r++) {
        int64_t n = 0;
        for (int64_t j = 0; j < kv; j++)
            if (isfinite(L[r * kv + j])) cs[n].v = L[r * kv + j], cs[n++].j = (int32_t)j;
        qsort(cs, (size_t)n, sizeof(cand), by_logit);
        if (n > k) n = k;
        qsort(cs, (size_t)n, sizeof(cand), by_index);
        for (int64_t i = 0; i < k; i++) out[r * k + i] = i < n ? cs[i].j : -1;
    }
    free(cs);
}

const mrt_op_class mrt_op_topk = {
    .name = "topk", .opcode = MRT_OPC_TOPK, .n_in = 1, .n_out = 1,
    .check = check, .default_cfg = default_cfg, .tile = tile, .cpu = cpu,
    .tokens = mrt_payload_rows,
};
