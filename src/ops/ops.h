/* Shared helpers of the op files (src/ops/<op>.c): shape checks with messages that name
 * the op and tensor, typed slot access for the CPU tile functions. */
#ifndef MRT_OPS_H
#define MRT_OPS_H

#include "cpu.h"
#include "internal.h"
#include "numerics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Op kinds, in opcode order (megartp_isa.h). */
extern const mrt_op_class mrt_op_add_rmsnorm_quant, mrt_op_gemm_fp8, mrt_op_gemm_bf16, mrt_op_bmm_bf16,
    mrt_op_index_logits, mrt_op_topk;

/* gemm_fp8 epilogues (op param i[0]): the finalization fused after the split-K reduction. */
enum { MRT_EPI_QKV_A = 1, MRT_EPI_INDEX_K = 2, MRT_EPI_Q_B = 3, MRT_EPI_INDEX_Q = 4 };

static inline const mrt_tensor *op_in(const mrt_graph *g, const mrt_op *op, int i) {
    return &g->tensors[op->in[i]];
}
static inline const mrt_tensor *op_out(const mrt_graph *g, const mrt_op *op, int i) {
    return &g->tensors[op->out[i]];
}

/* Expects tensor x to have dtype dt and the given dims (-1 = any); fails naming both. */
mrt_status mrt_expect(mrt_context *ctx, const mrt_op *op, const mrt_tensor *x, mrt_dtype dt, int ndim,
                      int64_t d0, int64_t d1, int64_t d2);

static inline mrt_box box(int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    mrt_box b = {(int32_t)r0, (int32_t)r1, (int32_t)c0, (int32_t)c1};
    return b;
}
static inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* How a split-K op divides its kblocks K blocks among `split` splits (split < 1 counts as 1):
 * *kbs blocks a split, the last may hold fewer; returns the number of splits that hold any.
 * The tilers' rule, which the GPU executors follow to sum the same partials. */
static inline int64_t mrt_split_blocks(int64_t kblocks, int split, int64_t *kbs) {
    *kbs = ceil_div(kblocks, split < 1 ? 1 : split);
    return ceil_div(kblocks, *kbs);
}

/* Default split-K of a weight-streaming GEMM (docs/TILING.md): the largest divisor s of its
 * kblocks K blocks with tiles * s <= workers (one wave: every task on its own worker) and
 * tile_bytes / s >= min_task_bytes (smaller tasks cost more in reduction than they save:
 * 48 KiB for the fp8 GEMMs, 24 KiB for the head gate); at least 1.
 * Divisors only: every split holds the same K blocks, so the stream executors can take the
 * plan's split and sum the same partials (byte equality with the megakernel). */
int mrt_default_split(int64_t kblocks, int64_t tiles, double tile_bytes, double min_task_bytes, int workers);

/* e4m3 decode through a table (the CPU GEMMs decode billions of codes). */
extern float mrt_e4m3_lut[256];
void mrt_e4m3_lut_init(void);

#define SLOT(c, i, type) ((type *)(c)->slot[i])

/* Decode-step geometry of ops that touch the paged caches: m tokens, `batch` requests of
 * n = m / batch new tokens each, context kv, cache blocks of block_tokens tokens. Cache
 * regions use logical rows b * kv + position (DESIGN: regions are declared before the
 * block table is known; executors map them through it). */
typedef struct mrt_step_geom {
    int64_t m, batch, n, kv, block_tokens;
} mrt_step_geom;

static inline mrt_step_geom mrt_geom(int64_t m, int32_t batch, int32_t kv, int32_t block_tokens) {
    mrt_step_geom s = {m, batch, batch > 0 ? m / batch : 0, kv, block_tokens};
    return s;
}

/* Declares a write (pub) or read (pub < 0) of the logical cache rows of tokens [t0, t1),
 * one box per request they span, cols [0, cols). */
void mrt_tiler_cache_rows(mrt_tiler *t, const mrt_tensor *cache, const mrt_step_geom *s, int64_t t0, int64_t t1,
                          int64_t cols, int pub);

/* Checks pos[t] == kv - n + t % n (the positions the plan was built for) and every block
 * table entry in [0, num_blocks): a bad value would write outside the cache. */
mrt_status mrt_check_step_inputs(mrt_context *ctx, const mrt_op *op, const mrt_step_geom *s, const int32_t *pos,
                                 const int32_t *block_table, int64_t num_blocks);

/* Physical cache block and in-block offset of token t's new slot. */
static inline void mrt_cache_slot(const mrt_step_geom *s, const int32_t *block_table, int64_t t, int32_t pos,
                                  int64_t *block, int64_t *off) {
    int64_t b = t / s->n, bpr = ceil_div(s->kv, s->block_tokens);
    *block = block_table[b * bpr + pos / s->block_tokens];
    *off = pos % s->block_tokens;
}

#ifdef __cplusplus
}
#endif

#endif
