/* index_logits (E1) on the GPU: the compute of one tile (request b, keys [j0, j1)) by 256
 * threads. The C reference is `cpu` in index_logits.c; the launcher is src/cuda/index_ops.cu.
 *
 *   logit[t, j] = (sum_h wI[t,h] * relu(q8[t,h,:] . k8[j,:])) * ks[j]   (j <= pos[t]; else -inf)
 *
 * Tensor cores, rows = keys, columns = (token, head): one mma computes 16 keys x 8 heads of
 * one token; a warp keeps one token's query fragments (all heads) in registers and streams the
 * tile's keys out of shared memory, 16 at a time. Rows = keys (not (token, head)) because the
 * head sum then runs along the accumulator's columns: per 16 keys x 32 heads a thread holds 8
 * heads of 2 keys and 4 shuffles finish the sum (the other orientation needs 3x the shuffles).
 *
 * K is permuted: the dot product does not care in which order the 128 products are summed, so
 * thread `tig` (lane % 4) of every fragment takes bytes [32 tig, 32 tig + 32) of its key and
 * of its query row and hands them to the mma in the slots its layout gives it. Keys then reach
 * shared memory and registers as whole 16-byte vectors, and A and B agree on the order.
 *
 * Two numeric modes (template MODE):
 *  - MRT_IL_F16 (production): e4m3 -> f16 is exact (cvt.rn.f16x2.e4m3x2), mma m16n8k16 f16 with
 *    f32 accumulation: products exact, sums in (truncating) fp32. Keys are converted once per
 *    tile into shared memory; queries once per token into registers.
 *  - MRT_IL_E4M3: mma m16n8k32 e4m3 directly (half the mma instructions). Hopper's FP8 wgmma
 *    accumulates in ~13 mantissa bits; with mma.sync on the H200 this mode measured the same
 *    error as f16 (~6e-8) and no speed-up (it seems to run at the f16 rate); kept to measure.
 *
 * Measured (H200, 2026-11-29, M = 16, batch 2, kv 8192, CUDA graph): chunk 64 7.0 us a kernel,
 * chunk 128 7.6, chunk 256 13.2. From chunk 128 to 256 each warp does 8 more groups for +5.5 us:
 * ~1360 cycles a group of 32 mma, i.e. the mmas of a warp run one after the other (~42 cycles
 * each) rather than as 4 chains; ORDER 1 / 2 below try to fix that. Beyond it, the floor of this
 * design is the mma.sync rate (~2 us for the GLM-5 case); wgmma (m64nNk16, B from shared
 * memory) would be the next step.
 *
 * Limits (the launcher checks):
 * dim = 128, heads <= 8 * NT (NT = 4 or 8), block_tokens % 4 == 0, 16-byte aligned q8 and cache. */
#ifndef MRT_INDEX_LOGITS_CUH
#define MRT_INDEX_LOGITS_CUH

#include <math.h>
#include <stdint.h>

#include "cp_async.cuh"
#include "fastdiv.h"

#define MRT_IL_THREADS 256 /* 8 compute warps: the megakernel's consumer warps 4-11 */
#define MRT_IL_WARPS (MRT_IL_THREADS / 32)
#define MRT_IL_SUB 128 /* keys staged in shared memory at a time */
#define MRT_IL_DIM 128 /* the permutation of K above assumes 4 x 32 bytes per row */
#define MRT_IL_BAR 1   /* named barrier of the 256 compute threads (0 is __syncthreads) */

enum { MRT_IL_F16 = 0, MRT_IL_E4M3 = 1 };

/* Everything a tile needs; the launcher (or the megakernel's operand row) fills it. */
struct mrt_index_logits_args {
    const uint8_t *q8;       /* [M, heads, 128] e4m3 */
    const float *wI;         /* [M, heads] */
    const uint8_t *cache;    /* [num_blocks][block_tokens * 128 codes, block_tokens f32 scales] */
    const int *pos;          /* [M] */
    const int *block_table;  /* [batch, bpr] */
    float *logits;           /* [M, kv] */
    int M, batch, n, kv, heads, block_tokens, bpr, chunk, nchunks;
    long long block_bytes;   /* block_tokens * 132 */
    mrt_fastdiv blocks;      /* j / block_tokens (mrt_il_set_blocks) */
};

/* The cache's block geometry in the arguments (every launcher; a.kv set first). */
static inline void mrt_il_set_blocks(mrt_index_logits_args &a, int block_tokens) {
    a.block_tokens = block_tokens;
    mrt_cache_blocks(a.kv, block_tokens, &a.bpr, &a.blocks);
    a.block_bytes = (long long)block_tokens * (MRT_IL_DIM + 4);
}

/* Shared memory of a tile: the raw staging area (SUB keys as stored + scales), SUB keys in the
 * compute layout, their scales. Compute-layout key rows are padded
 * so that the 8 lanes of one 16-byte access phase (2 keys x 4 tig) hit 8 distinct bank quads:
 * f16 rows are 256 + 16 bytes with the two upper 64-byte segments' quads swapped in pairs;
 * e4m3 rows are 128 + 16 bytes. */
template <int MODE> struct mrt_il_layout {
    static constexpr int KROW = MODE == MRT_IL_F16 ? 272 : 144;
    static constexpr int RAW_BYTES = MRT_IL_SUB * MRT_IL_DIM;
    static constexpr int KEYS_BYTES = MRT_IL_SUB * KROW;
    static constexpr int SMEM_BYTES = RAW_BYTES + MRT_IL_SUB * 4 + KEYS_BYTES + MRT_IL_SUB * 4;
};

/* the tile's barrier over its THREADS (the wgmma tile's: its warpgroups, index_logits_wg.cuh) */
template <int THREADS = MRT_IL_THREADS> static __device__ __forceinline__ void mrt_il_bar() {
    asm volatile("bar.sync %0, %1;" ::"n"(MRT_IL_BAR), "n"(THREADS) : "memory");
}

/* Four e4m3 codes (one little-endian word) -> two f16x2 words, exactly: lo holds codes 0, 1. */
static __device__ __forceinline__ void mrt_il_e4m3x4_to_f16(uint32_t w, uint32_t &lo, uint32_t &hi) {
    asm("{\n\t.reg .b16 l, h;\n\tmov.b32 {l, h}, %2;\n\tcvt.rn.f16x2.e4m3x2 %0, l;\n\tcvt.rn.f16x2.e4m3x2 %1, h;\n\t}"
        : "=r"(lo), "=r"(hi)
        : "r"(w));
}

static __device__ __forceinline__ void mrt_il_mma_f16(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2,
                                                      uint32_t a3, uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

/* The same without `volatile`: the compiler may reorder it like any arithmetic (ORDER >= 1). */
static __device__ __forceinline__ void mrt_il_mma_f16_nv(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2,
                                                         uint32_t a3, uint32_t b0, uint32_t b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

static __device__ __forceinline__ void mrt_il_mma_e4m3(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2,
                                                       uint32_t a3, uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

/* Byte offset, inside a staged f16 key row, of quad i (f16 of codes [32 tig + 8 i, +8)). */
static __device__ __forceinline__ int mrt_il_f16_quad(int tig, int i) { return tig * 64 + 16 * (i ^ (tig & 2)); }

/* Key j of request b's cache (bt = its block-table row): its 128 codes, and the copy of its
 * scale into *dst (cp.async; 0 when j is at or past j1). The tiles of index_logits.cuh and
 * index_logits_wg.cuh address the cache only through these two. */
static __device__ __forceinline__ const uint8_t *mrt_il_key_row(const mrt_index_logits_args &a, const int *bt, int j) {
    const int blk = (int)mrt_fastdiv_q((uint32_t)j, a.blocks);
    return a.cache + (long long)bt[blk] * a.block_bytes + (long long)(j - blk * a.block_tokens) * MRT_IL_DIM;
}
static __device__ __forceinline__ const float *mrt_il_scale_src(const mrt_index_logits_args &a, const int *bt, int j,
                                                                 int j1) {
    if (j >= j1) return nullptr;
    const int blk = (int)mrt_fastdiv_q((uint32_t)j, a.blocks);
    const uint8_t *base = a.cache + (long long)bt[blk] * a.block_bytes;
    return (const float *)(base + (long long)a.block_tokens * MRT_IL_DIM + (j - blk * a.block_tokens) * 4);
}
static __device__ __forceinline__ void mrt_il_scale_copy(float *dst, const float *src) {
    if (src) mrt_cp_async4(dst, src);
    else *dst = 0.0f;
}
static __device__ __forceinline__ void mrt_il_scale_issue(const mrt_index_logits_args &a, const int *bt, int j, int j1,
                                                          float *dst) {
    mrt_il_scale_copy(dst, mrt_il_scale_src(a, bt, j, j1));
}
static __device__ __forceinline__ void mrt_il_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

/* Starts copying keys [js, js + nrows) (codes as stored, 128 bytes a key) and their scales
 * into the raw staging area; keys at or past j1 become zeros. cp.async rather than loads into
 * registers: the copy of the next keys overlaps the MMAs of the current ones without holding
 * registers (two CTAs per SM need <= 128). Not the .nc path: in the megakernel the cache rows
 * of this step were written by another CTA. */
static __device__ __forceinline__ void mrt_il_stage_issue(const mrt_index_logits_args &a, int b, int js, int j1,
                                                          int nrows, int tid, uint8_t *raw, float *raw_ks) {
    const int *bt = a.block_table + (long long)b * a.bpr;
#pragma unroll
    for (int p = 0; p < 4; p++) {
        const int u = tid + p * MRT_IL_THREADS, j = js + (u >> 3);
        uint8_t *dst = raw + u * 16;
        if ((u >> 3) >= nrows) continue;
        if (j < j1) mrt_cp_async16(dst, mrt_il_key_row(a, bt, j) + (u & 7) * 16);
        else *(uint4 *)dst = make_uint4(0, 0, 0, 0);
    }
    if (tid < nrows) mrt_il_scale_issue(a, bt, js + tid, j1, raw_ks + tid);
    mrt_il_commit();
}

/* Raw staged keys -> the compute layout (f16: converted, padded, quad-swizzled; e4m3: padded). */
template <int MODE>
static __device__ __forceinline__ void mrt_il_stage_convert(const uint8_t *raw, const float *raw_ks, uint8_t *keys,
                                                            float *ks_s, int nrows, int tid) {
    typedef mrt_il_layout<MODE> L;
#pragma unroll
    for (int p = 0; p < 4; p++) {
        const int u = tid + p * MRT_IL_THREADS, r = u >> 3, part = u & 7;
        if (r >= nrows) continue;
        const uint4 pc = *(const uint4 *)(raw + u * 16);
        uint8_t *row = keys + r * L::KROW;
        if (MODE == MRT_IL_F16) {
            /* piece `part` = codes [16 part, +16) = tig part/2, quads 2 (part & 1) and +1 */
            const int tig = part >> 1, i0 = (part & 1) * 2;
            uint4 qa, qb;
            mrt_il_e4m3x4_to_f16(pc.x, qa.x, qa.y);
            mrt_il_e4m3x4_to_f16(pc.y, qa.z, qa.w);
            mrt_il_e4m3x4_to_f16(pc.z, qb.x, qb.y);
            mrt_il_e4m3x4_to_f16(pc.w, qb.z, qb.w);
            *(uint4 *)(row + mrt_il_f16_quad(tig, i0)) = qa;
            *(uint4 *)(row + mrt_il_f16_quad(tig, i0 + 1)) = qb;
        } else {
            *(uint4 *)(row + part * 16) = pc;
        }
    }
    if (tid < nrows) ks_s[tid] = raw_ks[tid];
}

/* One token's operands in registers: the query fragments of all its heads (f16 pairs or e4m3
 * quads, in the permuted K order), its head weights for this thread's columns, its position. */
template <int MODE, int NT> struct mrt_il_query {
    static constexpr int QW = MODE == MRT_IL_F16 ? 16 : 8; /* fragment words per 8 heads */
    uint32_t qf[NT][QW];
    float w0[NT], w1[NT];
    int pos;
};

template <int MODE, int NT>
static __device__ __forceinline__ void mrt_il_load_query(const mrt_index_logits_args &a, int t, int lane,
                                                         mrt_il_query<MODE, NT> &q) {
    const int g = lane >> 2, tig = lane & 3;
#pragma unroll
    for (int nt = 0; nt < NT; nt++) {
        const int h = nt * 8 + g;
        uint4 v0 = make_uint4(0, 0, 0, 0), v1 = v0;
        if (h < a.heads) {
            const uint8_t *p = a.q8 + ((long long)t * a.heads + h) * MRT_IL_DIM + tig * 32;
            v0 = *(const uint4 *)p;
            v1 = *(const uint4 *)(p + 16);
        }
        const uint32_t w[8] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
#pragma unroll
        for (int s = 0; s < 8; s++) {
            if (MODE == MRT_IL_F16)
                mrt_il_e4m3x4_to_f16(w[s], q.qf[nt][2 * s], q.qf[nt][2 * s + 1]);
            else
                q.qf[nt][s] = w[s];
        }
        const int h0 = nt * 8 + 2 * tig;
        q.w0[nt] = h0 < a.heads ? a.wI[(long long)t * a.heads + h0] : 0.0f;
        q.w1[nt] = h0 + 1 < a.heads ? a.wI[(long long)t * a.heads + h0 + 1] : 0.0f;
    }
    q.pos = a.pos[t];
}

/* Token t (operands in q) against the staged keys' groups kg = slice, slice + S, ... of [0, nk).
 * Per 16-key group: NT x (K steps) mmas, relu * wI per (key, head), head sum, * ks, store.
 * ORDER (f16 only) is the order of the mmas of a group, a measured choice:
 *   0: per quad i, for each n-tile its two K steps (dependent mmas back to back);
 *   1: step-major: the NT n-tiles of one K step, then the next step (NT independent chains);
 *   2: step-major with K split over two accumulators per n-tile (2 NT chains of half length),
 *      added at the end. */
template <int MODE, int NT, int ORDER>
static __device__ __forceinline__ void mrt_il_token(const mrt_index_logits_args &a, const uint8_t *keys,
                                                    const float *ks_s, const mrt_il_query<MODE, NT> &q, int t, int js,
                                                    int nk, int slice, int S, int lane) {
    typedef mrt_il_layout<MODE> L;
    const int g = lane >> 2, tig = lane & 3;
    float *out = a.logits + (long long)t * a.kv + js;
    const int ngroups = (nk + 15) >> 4;
    for (int kg = slice; kg < ngroups; kg += S) {
        const uint8_t *r0 = keys + (kg * 16 + g) * L::KROW, *r1 = r0 + 8 * L::KROW;
        float acc[NT][4];
#pragma unroll
        for (int nt = 0; nt < NT; nt++) acc[nt][0] = acc[nt][1] = acc[nt][2] = acc[nt][3] = 0.0f;
        if (MODE == MRT_IL_F16 && ORDER == 0) {
#pragma unroll
            for (int i = 0; i < 4; i++) { /* quad i = K steps 2i, 2i+1 */
                const uint4 x = *(const uint4 *)(r0 + mrt_il_f16_quad(tig, i));
                const uint4 y = *(const uint4 *)(r1 + mrt_il_f16_quad(tig, i));
#pragma unroll
                for (int nt = 0; nt < NT; nt++) {
                    mrt_il_mma_f16(acc[nt], x.x, y.x, x.y, y.y, q.qf[nt][4 * i], q.qf[nt][4 * i + 1]);
                    mrt_il_mma_f16(acc[nt], x.z, y.z, x.w, y.w, q.qf[nt][4 * i + 2], q.qf[nt][4 * i + 3]);
                }
            }
        } else if (MODE == MRT_IL_F16 && ORDER == 1) {
#pragma unroll
            for (int i = 0; i < 4; i++) {
                const uint4 x = *(const uint4 *)(r0 + mrt_il_f16_quad(tig, i));
                const uint4 y = *(const uint4 *)(r1 + mrt_il_f16_quad(tig, i));
#pragma unroll
                for (int nt = 0; nt < NT; nt++)
                    mrt_il_mma_f16_nv(acc[nt], x.x, y.x, x.y, y.y, q.qf[nt][4 * i], q.qf[nt][4 * i + 1]);
#pragma unroll
                for (int nt = 0; nt < NT; nt++)
                    mrt_il_mma_f16_nv(acc[nt], x.z, y.z, x.w, y.w, q.qf[nt][4 * i + 2], q.qf[nt][4 * i + 3]);
            }
        } else if (MODE == MRT_IL_F16) {
            float acc2[NT][4];
#pragma unroll
            for (int nt = 0; nt < NT; nt++) acc2[nt][0] = acc2[nt][1] = acc2[nt][2] = acc2[nt][3] = 0.0f;
#pragma unroll
            for (int i = 0; i < 2; i++) { /* quads i and i + 2 feed the two chains */
                const uint4 x = *(const uint4 *)(r0 + mrt_il_f16_quad(tig, i));
                const uint4 y = *(const uint4 *)(r1 + mrt_il_f16_quad(tig, i));
                const uint4 u = *(const uint4 *)(r0 + mrt_il_f16_quad(tig, i + 2));
                const uint4 v = *(const uint4 *)(r1 + mrt_il_f16_quad(tig, i + 2));
#pragma unroll
                for (int nt = 0; nt < NT; nt++) {
                    mrt_il_mma_f16_nv(acc[nt], x.x, y.x, x.y, y.y, q.qf[nt][4 * i], q.qf[nt][4 * i + 1]);
                    mrt_il_mma_f16_nv(acc2[nt], u.x, v.x, u.y, v.y, q.qf[nt][4 * i + 8], q.qf[nt][4 * i + 9]);
                }
#pragma unroll
                for (int nt = 0; nt < NT; nt++) {
                    mrt_il_mma_f16_nv(acc[nt], x.z, y.z, x.w, y.w, q.qf[nt][4 * i + 2], q.qf[nt][4 * i + 3]);
                    mrt_il_mma_f16_nv(acc2[nt], u.z, v.z, u.w, v.w, q.qf[nt][4 * i + 10], q.qf[nt][4 * i + 11]);
                }
            }
#pragma unroll
            for (int nt = 0; nt < NT; nt++)
                for (int e = 0; e < 4; e++) acc[nt][e] += acc2[nt][e];
        } else {
#pragma unroll
            for (int i = 0; i < 2; i++) { /* 16 bytes = K steps 2i, 2i+1 */
                const uint4 x = *(const uint4 *)(r0 + tig * 32 + 16 * i);
                const uint4 y = *(const uint4 *)(r1 + tig * 32 + 16 * i);
#pragma unroll
                for (int nt = 0; nt < NT; nt++) {
                    mrt_il_mma_e4m3(acc[nt], x.x, y.x, x.y, y.y, q.qf[nt][4 * i], q.qf[nt][4 * i + 1]);
                    mrt_il_mma_e4m3(acc[nt], x.z, y.z, x.w, y.w, q.qf[nt][4 * i + 2], q.qf[nt][4 * i + 3]);
                }
            }
        }
        /* acc[nt]: [0], [1] = key g, heads 8nt + 2tig, +1; [2], [3] = key g + 8, same heads */
        float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
        for (int nt = 0; nt < NT; nt++) {
            s0 = fmaf(q.w0[nt], fmaxf(acc[nt][0], 0.0f), s0);
            s0 = fmaf(q.w1[nt], fmaxf(acc[nt][1], 0.0f), s0);
            s1 = fmaf(q.w0[nt], fmaxf(acc[nt][2], 0.0f), s1);
            s1 = fmaf(q.w1[nt], fmaxf(acc[nt][3], 0.0f), s1);
        }
        s0 += __shfl_xor_sync(0xffffffffu, s0, 1);
        s1 += __shfl_xor_sync(0xffffffffu, s1, 1);
        s0 += __shfl_xor_sync(0xffffffffu, s0, 2);
        s1 += __shfl_xor_sync(0xffffffffu, s1, 2);
        const int r = kg * 16 + g + 8 * tig; /* lane tig 0 stores key g, tig 1 key g + 8 */
        if (tig < 2 && r < nk) out[r] = js + r <= q.pos ? (tig ? s1 : s0) * ks_s[r] : -INFINITY;
    }
}

/* The tile: 256 threads (tid 0..255) compute logits[t, j] for the n tokens t of request b and
 * keys j in [j0, j1). smem: mrt_il_layout<MODE>::SMEM_BYTES, 16-byte aligned. Keys pass
 * through shared memory SUB at a time; the next SUB are copied (cp.async) while the current
 * ones are multiplied. Warps split the work as (token slot, key slice): with n >= 8 every warp
 * owns tokens; with fewer tokens, several warps share a token's keys. The first keys' copy and
 * the first token's query loads are issued together, so the tile starts after one memory
 * latency, not two; a warp with one token keeps its query fragments for all the keys.
 * Every key in [j0, j1) is read (its block is in the table since j < kv) whatever pos says;
 * the keys past pos[t] only become -inf. */
template <int MODE, int NT, int ORDER = 0>
static __device__ void mrt_index_logits_tile(const mrt_index_logits_args &a, int b, int j0, int j1, uint8_t *smem,
                                             int tid) {
    typedef mrt_il_layout<MODE> L;
    uint8_t *raw = smem;
    float *raw_ks = (float *)(smem + L::RAW_BYTES);
    uint8_t *keys = (uint8_t *)(raw_ks + MRT_IL_SUB);
    float *ks_s = (float *)(keys + L::KEYS_BYTES);
    const int warp = tid >> 5, lane = tid & 31, t0 = b * a.n;
    const int S = a.n >= MRT_IL_WARPS ? 1 : MRT_IL_WARPS / a.n, TS = MRT_IL_WARPS / S;
    const int slot = warp / S, slice = warp % S;
    /* rows of a sub-chunk that are read: whole 16-key groups (the tail rows are zeros) */
#define MRT_IL_NROWS(js) min(MRT_IL_SUB, (j1 - (js) + 15) & ~15)

    mrt_il_stage_issue(a, b, j0, j1, MRT_IL_NROWS(j0), tid, raw, raw_ks);
    mrt_il_query<MODE, NT> q;
    int cur = -1; /* the token whose operands are in q */
    if (slot < a.n) mrt_il_load_query<MODE, NT>(a, t0 + slot, lane, q), cur = slot;
    for (int js = j0; js < j1; js += MRT_IL_SUB) {
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        mrt_il_bar(); /* raw is complete; every warp is done with the previous keys */
        mrt_il_stage_convert<MODE>(raw, raw_ks, keys, ks_s, MRT_IL_NROWS(js), tid);
        mrt_il_bar(); /* keys ready, raw free */
        if (js + MRT_IL_SUB < j1)
            mrt_il_stage_issue(a, b, js + MRT_IL_SUB, j1, MRT_IL_NROWS(js + MRT_IL_SUB), tid, raw, raw_ks);
        const int nk = min(MRT_IL_SUB, j1 - js);
        for (int tl = slot; tl < a.n; tl += TS) {
            if (tl != cur) mrt_il_load_query<MODE, NT>(a, t0 + tl, lane, q), cur = tl;
            mrt_il_token<MODE, NT, ORDER>(a, keys, ks_s, q, t0 + tl, js, nk, slice, S, lane);
        }
    }
#undef MRT_IL_NROWS
}

#endif
