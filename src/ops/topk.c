/* topk (F1): the k largest finite logits of each row (of equal logits, the lower indices) as
 * logical key indices in ascending order, -1 padded. Index order: the set is what sparse
 * attention needs, ascending indices read the cache in order, and the GPU needs no sort to
 * produce it (docs/NUMERICS.md). in: logits [M, kv] f32; out: idx [M, k] i32 (k = i[0]).
 *
 * Two tilings (cfg.split = slices a row):
 *  - split 1: tiles of block_m rows, one worker a row. Payload r0 r1. Publication 0 = out.
 *  - split P > 1: each row is a reduce group of P tasks, slice p = keys [p S, p S + S) (S a
 *    multiple of 128, the last slice shorter). A member (phase MAIN) counts its slice's keys by
 *    their top 12 bits (the GPU's first radix digit, keys as in topk.cuh) and writes
 *    - G[r P + p][b] = its keys with digit >= b (b = 0..4096, G[4096] = 0), and
 *    - its keys as (key, index) pairs ordered by digit, highest first: the pairs of digit b
 *      at [G[b + 1], G[b]) of its part of row r of `ent` (order inside a digit: free), for
 *      the digits at or above that of its own k-th largest key only (the row's threshold
 *      digit is at least that: no pair below it is ever read).
 *    The finalizer (the member that completes the group, phase FINAL) sums the G arrays, finds
 *    the digit holding the k-th largest key, takes every slice's pairs above it (a prefix of
 *    each part) and resolves the threshold among that digit's pairs (contiguous in each part):
 *    its work is O(k + the digit's keys + kv / 32), not O(kv). No member waits for another.
 *    Payload r r+1 s0 s1 p P S. Publication 0 = the scratch (op-internal), 1 = out (group's).
 * Scratch (split > 1, 32-bit words read as unsigned): ent [M, 2 kv] (pairs), cnt [M P, MRT_TOPK_GW]. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "topk_split.h"

static mrt_status check(mrt_context *ctx, const mrt_graph *g, const mrt_op *op) {
    const mrt_tensor *l = op_in(g, op, 0);
    mrt_status s;
    if ((s = mrt_expect(ctx, op, l, MRT_F32, 2, -1, -1, -1))) return s;
    if (op->p.i[0] < 1)
        return mrt_fail(ctx, MRT_ERR_INVALID, "op %s (topk): k = %d must be >= 1", op->name, op->p.i[0]);
    return mrt_expect(ctx, op, op_out(g, op, 0), MRT_I32, 2, l->dims[0], op->p.i[0], -1);
}

/* Default slices a row: rows x slices at most the workers, at least MRT_TOPK_MIN_SLICE keys a
 * slice, at most MRT_TOPK_DEFAULT_SLICES (topk_split.h has the measurements). GLM-5 on 132
 * workers: KV=65536 M=1 and M=16 -> 4, M=64 -> 2, M=128 -> 1; KV <= 16383 -> 1. */
static mrt_tile_cfg default_cfg(const mrt_graph *g, const mrt_op *op, int workers) {
    const mrt_tensor *l = op_in(g, op, 0);
    int64_t m = l->dims[0] > 0 ? l->dims[0] : 1, by_keys = l->dims[1] / MRT_TOPK_MIN_SLICE;
    int64_t by_workers = workers / m, p = min64(MRT_TOPK_DEFAULT_SLICES, min64(by_keys, by_workers));
    mrt_tile_cfg c = {.block_m = 1, .split = p > 1 ? (int)p : 1};
    return c;
}

static mrt_status tile(mrt_tiler *t, const mrt_graph *g, const mrt_op *op, mrt_tile_cfg cfg) {
    const mrt_tensor *l = op_in(g, op, 0), *o = op_out(g, op, 0);
    int64_t m = l->dims[0], kv = l->dims[1], k = op->p.i[0], slice;
    if (cfg.block_m < 1) return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: block_m %d", op->name, cfg.block_m);
    const int64_t slices = mrt_topk_slices(kv, cfg.split, &slice);
    if (cfg.split < 1 || cfg.split > MRT_TOPK_MAX_SLICES)
        return mrt_fail(g->ctx, MRT_ERR_INVALID, "op %s: %d slices a row (1..%d)", op->name, cfg.split,
                        MRT_TOPK_MAX_SLICES);
    if (slices <= 1) {
        for (int64_t r0 = 0; r0 < m; r0 += cfg.block_m) {
            int64_t r1 = min64(m, r0 + cfg.block_m);
            /* as bytes a row's two passes over its logits (pass 1 from shared memory while
             * they fit; priced alike by the cost model, fitted so: schedule.c) */
            uint32_t *pl = mrt_tiler_task(t, (double)(r1 - r0) * kv * 8, 0);
            pl[0] = (uint32_t)r0, pl[1] = (uint32_t)r1;
            mrt_tiler_read(t, l, box(r0, r1, 0, kv));
            mrt_tiler_write(t, o, box(r0, r1, 0, k), 0);
        }
        return MRT_OK;
    }
    const mrt_tensor *ent = mrt_tiler_tensor(t, mrt_tiler_scratch(t, "ent", MRT_I32, m, 2 * kv));
    const mrt_tensor *cnt = mrt_tiler_tensor(t, mrt_tiler_scratch(t, "cnt", MRT_I32, m * slices, MRT_TOPK_GW));
    for (int64_t r = 0; r < m; r++) {
        mrt_tiler_group(t, (int)slices, 1u << 1);
        for (int64_t p = 0; p < slices; p++) {
            const int64_t s0 = p * slice, s1 = min64(kv, s0 + slice);
            /* one pass over the slice's logits (its G array and pairs are small beside them) */
            uint32_t *pl = mrt_tiler_task(t, (double)(s1 - s0) * 4, 0);
            const uint32_t v[7] = {(uint32_t)r, (uint32_t)r + 1, (uint32_t)s0, (uint32_t)s1, (uint32_t)p,
                                   (uint32_t)slices, (uint32_t)slice};
            memcpy(pl, v, sizeof v);
            mrt_tiler_read(t, l, box(r, r + 1, s0, s1));
            mrt_tiler_write(t, ent, box(r, r + 1, 2 * s0, 2 * s1), 0);
            mrt_tiler_write(t, cnt, box(r * slices + p, r * slices + p + 1, 0, MRT_TOPK_GW), 0);
            mrt_tiler_write(t, o, box(r, r + 1, 0, k), 1);
        }
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

/* The whole row on one worker: every finite logit, sorted, the first k, in index order. */
static void cpu_rows(const mrt_cpu_tile *c) {
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

/* A member: its slice's digit counts (G) and its (key, index) pairs by digit, highest first. */
static void cpu_slice(const mrt_cpu_tile *c) {
    const int64_t kv = op_in(c->plan->g, c->op, 0)->dims[1];
    const uint32_t *pl = c->payload, r = pl[0], s0 = pl[2], s1 = pl[3], p = pl[4], P = pl[5];
    const float *L = SLOT(c, 0, float) + (int64_t)r * kv;
    uint32_t *ent = SLOT(c, 2, uint32_t) + (int64_t)r * 2 * kv, *G = SLOT(c, 3, uint32_t) + ((int64_t)r * P + p) * MRT_TOPK_GW;
    uint32_t hist[4096] = {0}, at[4096];
    for (uint32_t i = s0; i < s1; i++) {
        const uint32_t key = mrt_topk_key(L[i]);
        if (key) hist[key >> 20]++;
    }
    const uint32_t k = (uint32_t)c->op->p.i[0];
    uint32_t dmin = 0; /* the highest digit with k keys at or above it in this slice alone */
    G[4096] = 0;
    for (int b = 4095; b >= 0; b--) {
        at[b] = G[b + 1], G[b] = G[b + 1] + hist[b];
        if (G[b + 1] < k && G[b] >= k) dmin = (uint32_t)b;
    }
    for (uint32_t i = s0; i < s1; i++) { /* pairs below dmin: never read by the merge */
        const uint32_t key = mrt_topk_key(L[i]);
        if (!key || key >> 20 < dmin) continue;
        const uint32_t e = 2 * (s0 + at[key >> 20]++);
        ent[e] = key, ent[e + 1] = i;
    }
}

typedef struct pair {
    uint32_t key, idx;
} pair;
static int pair_order(const void *a, const void *b) { /* larger key first, then lower index */
    const pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? 1 : -1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The finalizer: the digit holding the k-th largest from the summed G arrays, every pair
 * above it, the threshold among that digit's pairs (here by sorting them), the row in index
 * order. */
static void cpu_merge(const mrt_cpu_tile *c) {
    const int64_t kv = op_in(c->plan->g, c->op, 0)->dims[1], k = c->op->p.i[0];
    const uint32_t *pl = c->payload, r = pl[0], P = pl[5], S = pl[6];
    const uint32_t *ent = SLOT(c, 2, uint32_t) + (int64_t)r * 2 * kv, *G0 = SLOT(c, 3, uint32_t) + (int64_t)r * P * MRT_TOPK_GW;
    int32_t *out = SLOT(c, 1, int32_t) + (int64_t)r * k;
    uint8_t *sel = calloc((size_t)kv, 1);
    pair *list = malloc(sizeof(pair) * (size_t)kv);
    if (!sel || !list) { /* no memory: the row stays poisoned and the comparison fails */
        free(sel), free(list);
        return;
    }
    uint64_t nvalid = 0, above = 0;
    for (uint32_t p = 0; p < P; p++) nvalid += G0[p * MRT_TOPK_GW];
    int dsel = -1; /* every finite key when there are at most k */
    for (int b = 4095; b >= 0 && nvalid > (uint64_t)k; b--) {
        uint64_t in_b = 0;
        for (uint32_t p = 0; p < P; p++) in_b += G0[p * MRT_TOPK_GW + b] - G0[p * MRT_TOPK_GW + b + 1];
        if (above + in_b >= (uint64_t)k) {
            dsel = b;
            break;
        }
        above += in_b;
    }
    int64_t n = 0;
    for (uint32_t p = 0; p < P; p++) {
        const uint32_t *G = G0 + p * MRT_TOPK_GW, *e = ent + 2 * (int64_t)p * S;
        const uint32_t a = dsel < 0 ? G[0] : G[dsel + 1], b = dsel < 0 ? G[0] : G[dsel];
        for (uint32_t j = 0; j < a; j++) sel[e[2 * j + 1]] = 1;
        for (uint32_t j = a; j < b; j++) list[n++] = (pair){e[2 * j], e[2 * j + 1]};
    }
    qsort(list, (size_t)n, sizeof(pair), pair_order);
    for (int64_t j = 0; j < n && j < k - (int64_t)above; j++) sel[list[j].idx] = 1;
    int64_t o = 0;
    for (int64_t i = 0; i < kv && o < k; i++)
        if (sel[i]) out[o++] = (int32_t)i;
    while (o < k) out[o++] = -1;
    free(sel), free(list);
}

static void cpu(const mrt_cpu_tile *c) {
    const bool split = c->payload[5] > 1;
    if (c->phase == MRT_PHASE_MAIN) split ? cpu_slice(c) : cpu_rows(c);
    else if (split) cpu_merge(c);
}

const mrt_op_class mrt_op_topk = {
    .name = "topk", .opcode = MRT_OPC_TOPK, .n_in = 1, .n_out = 1,
    .check = check, .default_cfg = default_cfg, .tile = tile, .cpu = cpu, .has_final = true,
    .tokens = mrt_payload_rows,
};
