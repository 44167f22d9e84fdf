/* The finalizations fused after the FP8 GEMMs of the GLM-5 prefix (src/ops/gemm_fp8.c has
 * the C reference and the op's documentation): each reads the GEMM's reduced fp32 output
 * C [M, N] and applies its epilogue for one unit of one row, with a group of MRT_EPI_THREADS
 * threads (Q_B: 256): the whole CTA of the standalone kernel, or one of the megakernel's
 * groups (mrt_grp: thread index, count and barrier come from the caller).
 * Norm statistics accumulate in fp64 and products avoid FMA contraction (explicit _rn
 * intrinsics), matching the CPU reference step for step: differences then come only from
 * the GEMM's accumulation order. */
#pragma once

#include <stdint.h>

#include "add_rmsnorm_quant.cuh" /* mrt_grp, mrt_grp_sum_f64 */
#include "fastdiv.h"
#include "numerics.h"
#include "split_sum.cuh"

#define MRT_EPI_THREADS 128

/* Group-wide max of v (every thread gets it): fmaxf(0, warp 0's shuffle max, warp 1's, ...).
 * A one-warp group (the megakernel's finalization) takes lane 0's max by a shuffle instead of
 * through shared memory between two barriers: the same operands, so the same bits. */
static __device__ __forceinline__ float mrt_grp_max(const mrt_grp &g, float v, float *scratch) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (g.n == 32) return fmaxf(0.0f, __shfl_sync(0xffffffffu, v, 0));
    int warp = g.tid >> 5, lane = g.tid & 31, nw = g.n >> 5;
    g.sync();
    if (lane == 0) scratch[warp] = v;
    g.sync();
    float t = 0;
    for (int i = 0; i < nw; i++) t = fmaxf(t, scratch[i]);
    return t;
}

static __device__ __forceinline__ void mrt_rope_pair_rn(float *a, float *b, float c, float s) {
    float x = *a, y = *b;
    *a = __fsub_rn(__fmul_rn(x, c), __fmul_rn(y, s));
    *b = __fadd_rn(__fmul_rn(y, c), __fmul_rn(x, s));
}

/* Row factor of the folded q_a RMSNorm: block sums in fixed order, as the CPU does. */
static __device__ __forceinline__ float mrt_fold_factor(const float *ssq, int row, int blocks, int width, float eps) {
    double ss = 0;
    for (int b = 0; b < blocks; b++) ss += ssq[row * blocks + b];
    return mrt_rms_factor(ss, width, eps);
}

/* Loads by a whole warp at once: lane j holds value j of each 32, and every lane (or lane 0)
 * adds them in index order through shuffles: the same operations in the same order as the
 * one-thread loops, one memory round trip instead of a chain of them (the finalization jobs
 * are latency-bound: docs/MEGAKERNEL.md). Measured against the loops (H200, session 11 run 4,
 * A B A B): mega 101.74 / 101.10 us against 103.11 / 101.07, serial 77.13 / 77.03 against
 * 77.33 / 77.37. Used here and in INDEX_Q's gate partials, through one template since
 * session 14 (the two loops it replaced measured level against it: mega 95.81 / 95.78 against
 * 95.49 / 95.85 us, serial and cmp level, H200 session 14 run 2). */
/* acc = add(acc, value i) for i = 0 .. n-1 in order, value i = load(i) loaded by lane i % 32 */
template <class Acc, class Load, class Add>
static __device__ __forceinline__ Acc mrt_warp_fold_in_order(int n, Acc acc, const Load &load, const Add &add) {
    const int lane = (int)threadIdx.x & 31;
    for (int i0 = 0; i0 < n; i0 += 32) {
        const float v = i0 + lane < n ? load(i0 + lane) : 0.0f;
        const int m = min(32, n - i0);
        for (int i = 0; i < m; i++) acc = add(acc, __shfl_sync(0xffffffffu, v, i));
    }
    return acc;
}
/* load(b): row's q_a block sum b */
template <class Load>
static __device__ __forceinline__ float mrt_fold_factor_warp_of(int blocks, int width, float eps, const Load &load) {
    const double ss = mrt_warp_fold_in_order(blocks, 0.0, load, [](double s, float x) { return s + (double)x; });
    return mrt_rms_factor(ss, width, eps);
}
static __device__ __forceinline__ float mrt_fold_factor_warp(const float *ssq, int row, int blocks, int width, float eps) {
    return mrt_fold_factor_warp_of(blocks, width, eps, [&](int b) { return ssq[row * blocks + b]; });
}

struct mrt_epi_args {
    const float *c; /* [M, N] reduced GEMM output */
    int M, N, K;
    float eps;
    /* QKV_A */
    const uint16_t *w_qn, *w_kvn;
    uint8_t *qr8;
    float *sqr, *ssq_out;
    uint8_t *mla_cache;
    int q_lora, kv_lora, rope;
    /* shared by the cache writers and the RoPE users */
    const int32_t *pos, *block_table;
    const float *rope_cs; /* [kv, rope]: cos then sin */
    int batch, kv, block_tokens;
    /* the cache writers' quotients, filled by mrt_epi_fill: a row's request (row / (M / batch)),
     * a position's cache block (p / block_tokens), blocks a request's table row; Q_B's head
     * (column / (nope + rope)) and INDEX_Q's (column / dim) in the megakernel's job count.
     * Why not divisions: see mrt_cache_slot_dev. */
    mrt_fastdiv req_of_row, block_of_pos, head_of_col;
    int bpr;
    /* INDEX_K */
    const uint16_t *ln_w, *ln_b;
    uint8_t *idx_cache;
    /* Q_B / INDEX_Q */
    const float *ssq_in;
    int heads, nope, dim;
    uint16_t *q_nope, *qmla; /* Q_B: roped q_pe goes straight into qmla[:, h, kv_lora:] */
    int qmla_width, qmla_rope_at;
    const float *gate; /* INDEX_Q: [partials, M, heads] */
    int gate_partials;
    uint8_t *q8i;
    float *wI;
    float iq_c1, iq_c2; /* INDEX_Q: fp32(1 / sqrt(dim)), fp32(1 / sqrt(heads)), from the host */
};

/* The widest unit of columns an epilogue reads (QKV_A's kv unit: kv_lora + rope; Q_B's head:
 * nope + rope): the size of the shared-memory row a split GEMM's planes are summed into
 * (mrt_epi_fill refuses wider units). */
#define MRT_EPI_MAX_COLS 1536

/* An epilogue's view of its row of the reduced GEMM output: column col at v[col - col0].
 * Either the GEMM's output c itself (mrt_epi_row_c: an unsplit GEMM reduced it in its tiles)
 * or the unit's columns summed from the split planes into shared memory by the group that
 * then runs the epilogue (mrt_epi_sum_columns), so it does not read back from global memory
 * what it has just written there (one dependent round trip less a finalization job, and no
 * reduced buffer written). Measured in the megakernel (H200, session 25 runs 3-4, A B
 * against the round trip through global memory): level at M <= 16 (M=16 KV=8192 71.5-71.7
 * us both), M=64 KV=1024 104.3 against 105.4, M=128 KV=1024 173.3 against 179.1, KV=8192
 * 191.9 against 195.3. */
struct mrt_epi_row {
    const float *v;
    int col0;
};
static __device__ __forceinline__ mrt_epi_row mrt_epi_row_c(const mrt_epi_args &a, int row) {
    return mrt_epi_row{a.c + (size_t)row * a.N, 0};
}
static __device__ __forceinline__ float mrt_epi_at(const mrt_epi_row &r, int col) { return r.v[col - r.col0]; }

/* Columns [c0, c1) of row `row`: the nsplit partial planes (`plane` floats apart,
 * [split][M][N]) summed in split order into dst[0 .. c1 - c0) (shared memory, 16-byte
 * aligned), 4 columns a thread-step (c0, c1 multiples of 4); the epilogue then reads them as
 * mrt_epi_row{dst, c0}. The caller's group barrier must follow before it does. Used where a
 * GEMM left its planes unsummed: the standalone finalization kernel and the megakernel's
 * group finalization. */
static __device__ __forceinline__ mrt_epi_row mrt_epi_sum_columns(const mrt_grp &g, const float *part, float *dst,
                                                                  long long plane, int nsplit, int N, int row, int c0,
                                                                  int c1) {
    for (int n = c0 + 4 * g.tid; n < c1; n += 4 * g.n) {
        const float *src = part + (long long)row * N + n;
        float4 v[1];
        if (nsplit > 1) mrt_sum_splits<1>(src, plane, nsplit, v);
        else v[0] = __ldcg((const float4 *)src);
        *(float4 *)(dst + (n - c0)) = v[0];
    }
    return mrt_epi_row{dst, c0};
}


/* The epilogues read their row's inputs (cache slot, RoPE cos/sin, gate partials) first:
 * those are chains of dependent global loads (pos -> block_table, pos -> rope_cs) that then
 * overlap the reductions instead of following them (a barrier keeps the compiler from
 * moving a load across it). The arithmetic and its order are unchanged. */
static __device__ __forceinline__ void mrt_rope_cs_at(const float *rope_cs, const int32_t *pos, int row, int rope, int i,
                                                      float *c, float *s) {
    const float *cs = rope_cs + (size_t)pos[row] * rope;
    *c = cs[i], *s = cs[rope / 2 + i];
}
static __device__ __forceinline__ void mrt_rope_cs_dev(const mrt_epi_args &a, int row, int rope, int i, float *c, float *s) {
    mrt_rope_cs_at(a.rope_cs, a.pos, row, rope, i, c, s);
}

/* A row's cache slot by multiply-shift quotients (fastdiv.h) instead of nvcc's division by
 * run-time values (~45 instructions each, four of them here): B0's and B1's finalizations run
 * this on the megakernel's chain once a step, with their code cold. */
static __device__ __forceinline__ void mrt_cache_slot_dev(const mrt_epi_args &a, int row, int64_t *blk, int *off) {
    const int b = (int)mrt_fastdiv_q((uint32_t)row, a.req_of_row), p = a.pos[row];
    const int q = (int)mrt_fastdiv_q((uint32_t)p, a.block_of_pos);
    *blk = a.block_table[b * a.bpr + q];
    *off = p - q * a.block_tokens;
}

/* QKV_A, q unit: 128 columns [c0, c0 + 128) of q_c: quantize w_qn * q_c with its own block
 * scale, publish the block's sum of q_c^2 (the consumers fold the row's RMSNorm factor).
 * K = 128 / g.n columns a thread (c0 + tid + k * g.n); the sum of squares in the order of 128
 * threads whatever K (mrt_grp_sum_f64_k), the block's amax a max: the same bits at any K. */
template <int K>
static __device__ void mrt_epi_qkv_a_q_k(const mrt_grp &g, const mrt_epi_args &a, const mrt_epi_row &cr, int row,
                                         int c0, double *dscratch, float *fscratch) {
    const int i = g.tid;
    float y[K], amax = 0;
    double sq[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
        const int col = c0 + i + k * g.n;
        const float q = mrt_round_bf16(mrt_epi_at(cr, col));
        y[k] = __fmul_rn(mrt_bf16_to_f32(a.w_qn[col]), q);
        sq[k] = (double)q * (double)q;
        amax = k ? fmaxf(amax, fabsf(y[k])) : fabsf(y[k]);
    }
    double ss = mrt_grp_sum_f64_k<K>(g, sq, dscratch);
    float s = mrt_block_scale(mrt_grp_max(g, amax, fscratch));
#pragma unroll
    for (int k = 0; k < K; k++) a.qr8[(size_t)row * a.q_lora + c0 + i + k * g.n] = mrt_f32_to_e4m3(__fdiv_rn(y[k], s));
    if (i == 0) {
        a.sqr[row * (a.q_lora / 128) + c0 / 128] = s;
        a.ssq_out[row * (a.q_lora / 128) + c0 / 128] = (float)ss;
    }
}
static __device__ void mrt_epi_qkv_a_q(const mrt_grp &g, const mrt_epi_args &a, const mrt_epi_row &cr, int row, int c0,
                                       double *dscratch, float *fscratch) {
    if (g.n == 32) return mrt_epi_qkv_a_q_k<4>(g, a, cr, row, c0, dscratch, fscratch); /* the megakernel's one-warp groups */
    mrt_epi_qkv_a_q_k<1>(g, a, cr, row, c0, dscratch, fscratch); /* 128 threads, one column each */
}

/* QKV_A, kv unit: RMSNorm of kv_c, 1x128 quantization, RoPE of k_pe, the fp8_ds_mla entry. */
static __device__ void mrt_epi_qkv_a_kv(const mrt_grp &g, const mrt_epi_args &a, const mrt_epi_row &cr, int row,
                                        double *dscratch, float *fscratch) {
    const int kvl = a.kv_lora, per = kvl / MRT_EPI_THREADS; /* kv_lora = 512: 4 each */
    const int c = a.q_lora; /* kv_c's first column */
    int64_t blk;
    int off;
    mrt_cache_slot_dev(a, row, &blk, &off);
    float rc = 0, rsn = 0;
    if (g.tid < a.rope / 2) mrt_rope_cs_dev(a, row, a.rope, g.tid, &rc, &rsn);
    float v[8];
    double ss = 0;
    for (int j = 0; j < per; j++) {
        v[j] = mrt_round_bf16(mrt_epi_at(cr, c + g.tid * per + j));
        ss += (double)v[j] * (double)v[j];
    }
    float rs = mrt_rms_factor(mrt_grp_sum_f64(g, ss, dscratch), kvl, a.eps);
    int entry = kvl + kvl / 32 + 2 * a.rope;
    uint8_t *e = a.mla_cache + ((size_t)blk * a.block_tokens + off) * entry;
    float amax = 0;
    for (int j = 0; j < per; j++) {
        int k = g.tid * per + j;
        v[j] = __fmul_rn(__fmul_rn(mrt_bf16_to_f32(a.w_kvn[k]), v[j]), rs);
        amax = fmaxf(amax, fabsf(v[j]));
    }
    /* a 128-group = 128 / per consecutive threads: reduce within them (o < 128 / per, written
     * without the divide) */
    for (int o = 1; (o + 1) * per <= 128; o <<= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
    float s = mrt_block_scale(amax);
    for (int j = 0; j < per; j++) e[g.tid * per + j] = mrt_f32_to_e4m3(__fdiv_rn(v[j], s));
    if ((g.tid * per) % 128 == 0) memcpy(e + kvl + 4 * ((g.tid * per) / 128), &s, 4);
    if (g.tid < a.rope / 2) {
        int i = g.tid;
        float x = mrt_round_bf16(mrt_epi_at(cr, c + kvl + 2 * i)), y = mrt_round_bf16(mrt_epi_at(cr, c + kvl + 2 * i + 1));
        mrt_rope_pair_rn(&x, &y, rc, rsn);
        uint16_t hx = mrt_f32_to_bf16(x), hy = mrt_f32_to_bf16(y);
        memcpy(e + kvl + kvl / 32 + 4 * i, &hx, 2);
        memcpy(e + kvl + kvl / 32 + 4 * i + 2, &hy, 2);
    }
    (void)fscratch;
}

/* INDEX_K: LayerNorm (fp64 statistics), RoPE on the first 64, power-of-two quantization,
 * the indexer cache entry. 128 threads, one column each. */
static __device__ void mrt_epi_index_k(const mrt_grp &g, const mrt_epi_args &a, const mrt_epi_row &cr, int row,
                                       double *dscratch, float *fscratch, float *rowbuf) {
    int i = g.tid;
    int64_t blk;
    int off;
    mrt_cache_slot_dev(a, row, &blk, &off);
    float rc = 0, rsn = 0;
    if (i < 32) mrt_rope_cs_dev(a, row, 64, i, &rc, &rsn);
    float k = mrt_round_bf16(mrt_epi_at(cr, i));
    double mean = mrt_grp_sum_f64(g, (double)k, dscratch) / 128.0;
    double d = (double)k - mean;
    double var = mrt_grp_sum_f64(g, d * d, dscratch) / 128.0;
    float mf = (float)mean, rs = mrt_ln_factor(var, a.eps);
    float y = __fadd_rn(__fmul_rn(__fmul_rn(__fsub_rn(k, mf), rs), mrt_bf16_to_f32(a.ln_w[i])), mrt_bf16_to_f32(a.ln_b[i]));
    rowbuf[i] = y;
    g.sync();
    if (i < 32) {
        float x0 = rowbuf[2 * i], x1 = rowbuf[2 * i + 1];
        mrt_rope_pair_rn(&x0, &x1, rc, rsn);
        rowbuf[2 * i] = x0, rowbuf[2 * i + 1] = x1;
    }
    g.sync();
    y = rowbuf[i];
    float ks = mrt_pow2_scale(mrt_grp_max(g, fabsf(y), fscratch));
    uint8_t *base = a.idx_cache + (size_t)blk * a.block_tokens * (128 + 4);
    base[off * 128 + i] = mrt_f32_to_e4m3(__fmul_rn(y, mrt_pow2_inv(ks))); /* = y / ks */
    if (i == 0) memcpy(base + a.block_tokens * 128 + off * 4, &ks, 4);
}

/* Q_B's (and INDEX_Q's) value of GEMM sum c with the row's folded q_a norm factor r, rounded
 * to bf16. */
static __device__ __forceinline__ float mrt_q_b_fold(float c, float r) { return mrt_round_bf16(__fmul_rn(c, r)); }

/* Q_B, columns [c0, c1) of one head of one row: fold the q_a norm, round to bf16, keep
 * q_nope, rope the rope part into the FlashMLA query (the piece holding the head's rope
 * columns holds all of them: the megakernel's finalizer checks this of its tiles). The
 * standalone kernel passes the whole head. */
static __device__ void mrt_epi_q_b(const mrt_grp &g, const mrt_epi_args &a, const mrt_epi_row &cr, int row, int h,
                                   int c0, int c1, float *rowbuf) {
    int width = a.nope + a.rope, i = g.tid;
    float rc = 0, rsn = 0;
    if (c1 > a.nope && i < a.rope / 2) mrt_rope_cs_dev(a, row, a.rope, i, &rc, &rsn);
    float r = mrt_fold_factor_warp(a.ssq_in, row, a.K / 128, a.K, a.eps);
    for (int d = c0 + i; d < c1; d += g.n) {
        float q = mrt_q_b_fold(mrt_epi_at(cr, h * width + d), r);
        if (d < a.nope) a.q_nope[((size_t)row * a.heads + h) * a.nope + d] = mrt_f32_to_bf16(q);
        else rowbuf[d - a.nope] = q;
    }
    g.sync();
    if (c1 > a.nope && i < a.rope / 2) {
        float x = rowbuf[2 * i], y = rowbuf[2 * i + 1];
        mrt_rope_pair_rn(&x, &y, rc, rsn);
        uint16_t *o = a.qmla + ((size_t)row * a.heads + h) * a.qmla_width + a.qmla_rope_at;
        o[2 * i] = mrt_f32_to_bf16(x), o[2 * i + 1] = mrt_f32_to_bf16(y);
    }
    g.sync(); /* rowbuf is read before the group's next piece writes it */
}

/* INDEX_Q's row inputs: the gate's partial s of (row, head h) and q_a's block sum b of row (the
 * element mrt_fold_factor_warp reads). */
static __device__ __forceinline__ float mrt_epi_iq_gate(const mrt_epi_args &a, int row, int h, int s) {
    return a.gate[((size_t)s * a.M + row) * a.heads + h];
}
static __device__ __forceinline__ float mrt_epi_iq_ssq(const mrt_epi_args &a, int row, int b) {
    return a.ssq_in[row * (a.K / 128) + b];
}
/* INDEX_Q's row inputs as loaded, before any arithmetic on them (the megakernel's
 * finalization loads them before the split planes, mega_gemm.cuh): this thread's RoPE pair,
 * its lane's gate partial and q_a block sum (both counts at most 32:
 * mrt_epi_index_q_loads_fit). */
struct mrt_epi_iq_loads {
    float rc, rsn, gv, sv;
    float r;   /* the row's RMS factor when has_r (computed earlier from the same block sums in */
    int has_r; /* the same order: the megakernel's D1 tiles, mega_gemm.cuh), else computed here */
};
static __device__ __forceinline__ bool mrt_epi_index_q_loads_fit(const mrt_epi_args &a) {
    return a.gate_partials <= 32 && a.K / 128 <= 32;
}
static __device__ __forceinline__ mrt_epi_iq_loads mrt_epi_index_q_load(const mrt_grp &g, const mrt_epi_args &a, int row,
                                                                        int h) {
    mrt_epi_iq_loads l = {0, 0, 0, 0, 0, 0};
    const int lane = (int)threadIdx.x & 31;
    if (g.tid < a.rope / 2) mrt_rope_cs_dev(a, row, a.rope, g.tid, &l.rc, &l.rsn);
    if (lane < a.gate_partials) l.gv = mrt_epi_iq_gate(a, row, h, lane);
    if (lane < a.K / 128) l.sv = mrt_epi_iq_ssq(a, row, lane);
    return l;
}

/* INDEX_Q's folded head weight of (row, head) from its gate sum gs and its q scale qs. */
static __device__ __forceinline__ float mrt_epi_iq_weight(const mrt_epi_args &a, float gs, float qs) {
    return __fmul_rn(__fmul_rn(__fmul_rn(gs, qs), a.iq_c1), a.iq_c2);
}

/* probe(k) marks the epilogue's steps for a diagnostic (the megakernel's -DMRT_MEGA_FIN_PROBE=4
 * and 5: k = 0 the row factor done, 1 the head's RoPE done, 2 the row inputs in the row buffer);
 * nothing by default */
struct mrt_epi_no_probe {
    __device__ __forceinline__ void operator()(int) const {}
};

/* INDEX_Q, one head of one row (dim / g.n columns a thread, g.n >= 32 and >= rope / 2): fold,
 * bf16, RoPE on the first rope values, power-of-two quantization, the gate (partials summed
 * in order) folded into wI. Nothing here depends on the group's size: the head's amax is a
 * max, the rest element-wise (the megakernel runs one-warp groups, the standalone kernel
 * 128). PRE: the row inputs are l's (mrt_epi_index_q_load), else it loads them itself. */
template <bool PRE, class Probe = mrt_epi_no_probe>
static __device__ __forceinline__ void mrt_epi_index_q_t(const mrt_grp &g, const mrt_epi_args &a, const mrt_epi_row &cr,
                                                         int row, int h, const mrt_epi_iq_loads &l, float *fscratch,
                                                         float *rowbuf, const Probe &probe = Probe()) {
    int i = g.tid;
    float rc = 0, rsn = 0, gs = 0, r;
    if (PRE) {
        /* the same values and sums in the same order: lane i's gate partial and block sum
         * through rowbuf (before the row goes there), then every lane adds them in index
         * order, loads that all issue at once where a shuffle a value was a chain of
         * shuffles (~30 cycles each; INDEX_Q's epilogue 3.33 -> 2.91 us a job with the two
         * changes below, H200 session 25 run 5) */
        rc = l.rc, rsn = l.rsn;
        if (i < 32) rowbuf[i] = l.gv, rowbuf[32 + i] = l.sv;
        g.sync();
        probe(2);
        for (int s = 0; s < a.gate_partials; s++) gs = __fadd_rn(gs, rowbuf[s]);
        if (l.has_r) {
            r = l.r;
        } else {
            double ss = 0;
            for (int b = 0; b < a.K / 128; b++) ss += (double)rowbuf[32 + b];
            r = mrt_rms_factor(ss, a.K, a.eps);
        }
        g.sync(); /* rowbuf is the row's next */
    } else {
        if (i < a.rope / 2) mrt_rope_cs_dev(a, row, a.rope, i, &rc, &rsn);
        /* the gate's partials, summed in order (lane 0's sum is used) */
        if (i < 32)
            gs = mrt_warp_fold_in_order(a.gate_partials, 0.0f, [&](int s) { return mrt_epi_iq_gate(a, row, h, s); },
                                        [](float s, float x) { return __fadd_rn(s, x); });
        r = mrt_fold_factor_warp(a.ssq_in, row, a.K / 128, a.K, a.eps);
    }
    probe(0);
    for (int d = i; d < a.dim; d += g.n) rowbuf[d] = mrt_q_b_fold(mrt_epi_at(cr, h * a.dim + d), r);
    g.sync();
    if (i < a.rope / 2) {
        float x = rowbuf[2 * i], y = rowbuf[2 * i + 1];
        mrt_rope_pair_rn(&x, &y, rc, rsn);
        rowbuf[2 * i] = x, rowbuf[2 * i + 1] = y;
    }
    g.sync();
    probe(1);
    float amax = 0;
    for (int d = i; d < a.dim; d += g.n) amax = fmaxf(amax, fabsf(rowbuf[d]));
    const float qs = mrt_pow2_scale(mrt_grp_max(g, amax, fscratch)), qi = mrt_pow2_inv(qs);
    for (int d = i; d < a.dim; d += g.n)
        a.q8i[((size_t)row * a.heads + h) * a.dim + d] = mrt_f32_to_e4m3(__fmul_rn(rowbuf[d], qi)); /* = / qs */
    if (i == 0) a.wI[row * a.heads + h] = mrt_epi_iq_weight(a, gs, qs);
}
static __device__ void mrt_epi_index_q(const mrt_grp &g, const mrt_epi_args &a, const mrt_epi_row &cr, int row, int h,
                                       float *fscratch, float *rowbuf) {
    mrt_epi_index_q_t<false>(g, a, cr, row, h, mrt_epi_iq_loads{0, 0, 0, 0, 0, 0}, fscratch, rowbuf);
}

/* Q_B fused into the store of its GEMM (the serial and cmp executors' D0 when the GEMM is not
 * split: every sum is final in the tile). Called with 8 columns [n, n + 8) of row m, all
 * no-RoPE or all RoPE (nope, rope multiples of 8: the host checks); the same arithmetic as
 * mrt_epi_q_b on the same fp32 sums, so the same bytes, without the fp32 round trip and the
 * finalization kernel (mrt_gpu_gemm_fp8_args.fused). */
struct mrt_epi_q_b_fused {
    const float *ssq_in, *rope_cs;
    const int32_t *pos;
    uint16_t *q_nope, *qmla;
    int heads, nope, rope, qmla_width, qmla_rope_at, K;
    float eps;
    mrt_fastdiv head_of_col; /* column / (nope + rope), a divide less a store */
    /* row m's factor: its q_a RMSNorm folded into the output (mrt_q_b_fold) */
    __device__ __forceinline__ float row_factor(int m) const { return mrt_fold_factor(ssq_in, m, K / 128, K, eps); }
    /* A row's factor and position where they come from: computed / loaded for each call (the
     * executors' stores), or the megakernel's per-tile copies in shared memory (mega_gemm.cuh,
     * mrt_mega_qb_rows). */
    struct each_call {
        const mrt_epi_q_b_fused &q;
        __device__ __forceinline__ float factor(int m) const { return q.row_factor(m); }
        __device__ __forceinline__ const int32_t *position(int m) const { return q.pos + m; }
    };
    template <class Tile>
    __device__ __forceinline__ void operator()(const Tile &, int m, int n, const float (&v)[8]) const {
        store(m, n, v, each_call{*this});
    }
    /* 8 columns of row m */
    template <class Rows>
    __device__ __forceinline__ void store(int m, int n, const float (&v)[8], const Rows &rows) const {
        const int width = nope + rope, h = (int)mrt_fastdiv_q((uint32_t)n, head_of_col), d = n - h * width;
        const float r = rows.factor(m);
        float q[8];
        uint16_t o[8];
#pragma unroll
        for (int e = 0; e < 8; e++) q[e] = mrt_q_b_fold(v[e], r);
        uint16_t *dst;
        if (d < nope) {
            dst = q_nope + ((size_t)m * heads + h) * nope + d;
        } else {
            const int i0 = (d - nope) / 2;
#pragma unroll
            for (int e = 0; e < 4; e++) {
                float c, sn;
                mrt_rope_cs_at(rope_cs, rows.position(m), 0, rope, i0 + e, &c, &sn);
                mrt_rope_pair_rn(&q[2 * e], &q[2 * e + 1], c, sn);
            }
            dst = qmla + ((size_t)m * heads + h) * qmla_width + qmla_rope_at + (d - nope);
        }
#pragma unroll
        for (int e = 0; e < 8; e++) o[e] = mrt_f32_to_bf16(q[e]);
        *(uint4 *)dst = *(const uint4 *)o;
    }
};

/* The finalization arguments of a gemm_fp8 op (src/cuda/prefix_ops.cu): also the grid of
 * the standalone kernel (units per row, threads). 0, or -1 with a message in why. */
struct mrt_gpu_epi;
int mrt_epi_fill(const struct mrt_gpu_epi *e, mrt_epi_args *a, int *units, int *threads, char *why, size_t n);
/* The fused Q_B store of a finalization's arguments (N: the GEMM's columns); 0, or -1 with a
 * message where its layout does not allow it (src/cuda/gemm_fp8_standalone.cu). */
int mrt_epi_q_b_fused_of(const mrt_epi_args &a, int N, mrt_epi_q_b_fused *q, char *why, size_t n);

