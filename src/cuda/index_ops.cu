/* Standalone kernels and host launchers of the indexer ops E1 (index_logits) and F1 (topk).
 * The device code is the ops' tile functions (src/ops/index_logits.cuh, src/ops/topk.cuh);
 * here a __global__ wrapper maps CTAs to tiles, and the launchers check arguments. */
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gemm_host.h" /* mrt_gpu_fail, mrt_gpu_raise_smem */
#include "index_logits.cuh"
#include "index_ops.h"
#include "pdl.cuh"
#include "stamp.cuh"
#include "index_logits_wg.cuh"
#include "topk.cuh"
#include "trace_gpu.h"

/* Each kernel's TRACE (stamp.cuh) is its traced twin: a launcher runs it only with records,
 * and raises the shared memory attribute of whichever instantiation it launches. */

/* ---- E1: one CTA (256 threads) per tile (request, chunk of keys) ------------------------------ */
/* NT = 4 (heads <= 32) fits 128 registers: two CTAs per SM, so one's key loads overlap the
 * other's MMAs; NT = 8 keeps 64 heads of query fragments in registers (one CTA per SM). */
template <int MODE, int NT, int ORDER, bool TRACE>
__global__ void __launch_bounds__(MRT_IL_THREADS, NT == 4 ? 2 : 1) mrt_index_logits_kernel(mrt_index_logits_args a, mrt_cta_stamp *ts) {
    extern __shared__ __align__(16) uint8_t mrt_il_smem[];
    mrt_stamp_start_if<TRACE>(ts);
    mrt_pdl_entry<TRACE>(ts); /* q8i, wI (D1) and the indexer cache (B1) are producers' outputs */
    const int b = (int)blockIdx.x / a.nchunks, c = (int)blockIdx.x % a.nchunks;
    const int j0 = c * a.chunk, j1 = min(a.kv, j0 + a.chunk);
    mrt_index_logits_tile<MODE, NT, ORDER>(a, b, j0, j1, mrt_il_smem, (int)threadIdx.x);
    mrt_stamp_end_if<TRACE>(ts);
}

/* ---- E1 on wgmma (variants 4-9): the same tiles, two warpgroups (index_logits_wg.cuh); gsplit
 * CTAs share a tile's token groups (variant 9: one group each) ---------------------------------- */
template <int TPG, bool TRACE, int STAGES, int STOP>
__global__ void __launch_bounds__(MRT_IL_THREADS, 2)
    mrt_index_logits_wg_kernel(mrt_index_logits_args a, mrt_cta_stamp *ts, int gsplit) {
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    (void)a, (void)ts, (void)gsplit;
    __trap(); /* a compute_90 pass has no wgmma (gemm_kernel.cuh says why this never runs) */
#else
    extern __shared__ __align__(16) uint8_t mrt_ilw_smem[];
    mrt_stamp_start_if<TRACE>(ts);
    mrt_pdl_entry<TRACE>(ts);
    const int tile = (int)blockIdx.x / gsplit, gs = (int)blockIdx.x % gsplit;
    const int b = tile / a.nchunks, c = tile % a.nchunks;
    const int j0 = c * a.chunk, j1 = min(a.kv, j0 + a.chunk);
    const int gpb = ((a.n + TPG - 1) / TPG + gsplit - 1) / gsplit; /* token groups a CTA */
    mrt_index_logits_tile_wg<TPG, STAGES, STOP>(a, b, j0, j1, mrt_ilw_smem, (int)threadIdx.x, gs * gpb, gs * gpb + gpb);
    mrt_stamp_end_if<TRACE>(ts);
#endif
}

/* ---- F1: one CTA (T threads) per row --------------------------------------------------------- */
template <int T, bool TRACE, int STOP = 0>
__global__ void __launch_bounds__(T) mrt_topk_kernel(mrt_topk_args a, mrt_cta_stamp *ts) {
    extern __shared__ __align__(16) uint8_t mrt_topk_smem[];
    mrt_stamp_start_if<TRACE>(ts);
    mrt_pdl_entry<TRACE>(ts); /* the logits are E1's */
    mrt_topk_tile<T, STOP>(a, (int)blockIdx.x, (int)blockIdx.x + 1, mrt_topk_smem, (int)threadIdx.x);
    mrt_stamp_end_if<TRACE>(ts);
}

/* ---- F1, a row in slices (the megakernel's F1 with split > 1; test variants 11 and 12): CTA
 * (p, r) is slice p of row r, 384 threads as in the megakernel; the CTA completing the row's
 * ticket (acq_rel: releases its slice, acquires the others) merges the row. Tickets start at 0. */
__global__ void __launch_bounds__(384) mrt_topk_slices_kernel(mrt_topk_args a, int P, int S, unsigned *tickets) {
    extern __shared__ __align__(16) uint8_t mrt_topks_smem[];
    __shared__ int last;
    const int p = (int)blockIdx.x, r = (int)blockIdx.y, tid = (int)threadIdx.x;
    mrt_topk_slice<384>(a, r, p * S, min(a.kv, p * S + S), p, P, mrt_topks_smem, tid);
    if (tid == 0) {
        unsigned t;
        asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], 1;" : "=r"(t) : "l"(tickets + r) : "memory");
        last = t + 1u == (unsigned)P;
    }
    __syncthreads();
    if (last) mrt_topk_merge<384>(a, r, P, S, mrt_topks_smem, tid);
}

#define MRT_TOPK_REG_MAX 16384 /* variants 8 and 9: 16 keys a thread of 1024 */

/* ---- F1, the row's keys in registers: one CTA (T threads, PER keys each) per row -------------- */
template <int T, int PER, bool TRACE, bool STAGE = false>
__global__ void __launch_bounds__(T) mrt_topk_reg_kernel(mrt_topk_args a, mrt_cta_stamp *ts) {
    __shared__ __align__(16) uint8_t mrt_topkr_smem[sizeof(mrt_topk_shared) + MRT_TOPK_NB * 4];
    mrt_stamp_start_if<TRACE>(ts);
    mrt_pdl_entry<TRACE>(ts); /* the logits are E1's */
    const int r = (int)blockIdx.x;
    mrt_topk_row_reg<T, PER, STAGE>(a.logits + (long long)r * a.kv, a.kv, a.k, a.out + (long long)r * a.k,
                                    mrt_topkr_smem, (int)threadIdx.x);
    mrt_stamp_end_if<TRACE>(ts);
}

/* ---- F1, the row's keys in shared memory: one CTA (T threads) per row, each thread a run of
 * 32-bit keys (mrt_topk_row_runs) or, with P24, the keys' 24-bit prefixes (mrt_topk_row_runs24) */
template <int T, bool TRACE, bool P24 = false>
__global__ void __launch_bounds__(T) mrt_topk_runs_kernel(mrt_topk_args a, mrt_cta_stamp *ts) {
    extern __shared__ __align__(16) uint8_t mrt_topkn_smem[];
    mrt_stamp_start_if<TRACE>(ts);
    mrt_pdl_entry<TRACE>(ts); /* the logits are E1's */
    if (P24) mrt_topk_tile_runs24<T>(a, (int)blockIdx.x, (int)blockIdx.x + 1, mrt_topkn_smem, (int)threadIdx.x);
    else mrt_topk_tile_runs<T>(a, (int)blockIdx.x, (int)blockIdx.x + 1, mrt_topkn_smem, (int)threadIdx.x);
    mrt_stamp_end_if<TRACE>(ts);
}

/* ---- F1, cluster variant: one cluster of C CTAs (T threads each) per row -------------------- */
template <int T, int C, bool TRACE>
__global__ void __cluster_dims__(C, 1, 1) __launch_bounds__(T) mrt_topk_cluster_kernel(mrt_topk_args a, mrt_cta_stamp *ts) {
    extern __shared__ __align__(16) uint8_t mrt_topkc_smem[];
    mrt_stamp_start_if<TRACE>(ts);
    mrt_topk_tile_cluster<T, C>(a, (int)blockIdx.x / C, mrt_topkc_smem, (int)threadIdx.x);
    mrt_stamp_end_if<TRACE>(ts);
}


static int launched(const char *what, char *why, size_t n) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return mrt_gpu_fail(why, n, "%s: launch failed: %s", what, cudaGetErrorString(e));
    return 0;
}

template <int MODE, int NT, int ORDER = 0>
static cudaError_t mrt_il_launch(mrt_index_logits_args a, int grid, cudaStream_t s, int pdl) {
    const int bytes = mrt_il_layout<MODE>::SMEM_BYTES;
    mrt_cta_stamp *ts = mrt_gpu_stamps_take(grid, "index_logits");
    auto k = ts ? mrt_index_logits_kernel<MODE, NT, ORDER, true> : mrt_index_logits_kernel<MODE, NT, ORDER, false>;
    if (bytes > 48 * 1024) {
        cudaError_t e = mrt_gpu_raise_smem((const void *)k, bytes);
        if (e != cudaSuccess) return e;
    }
    void *args[2] = {&a, &ts};
    return mrt_pdl_launch((const void *)k, dim3(grid), dim3(MRT_IL_THREADS), (size_t)bytes, args, s, pdl);
}

template <int TPG, int STAGES, int STOP>
static cudaError_t mrt_ilw_launch(mrt_index_logits_args a, int grid, cudaStream_t s, int pdl, int gsplit) {
    const int bytes = mrt_ilw_layout<STAGES>::SMEM_BYTES;
    mrt_cta_stamp *ts = mrt_gpu_stamps_take(grid * gsplit, "index_logits"); /* one stamp a CTA */
    auto k = ts ? mrt_index_logits_wg_kernel<TPG, true, STAGES, STOP> : mrt_index_logits_wg_kernel<TPG, false, STAGES, STOP>;
    cudaError_t e = mrt_gpu_raise_smem((const void *)k, bytes);
    if (e != cudaSuccess) return e;
    void *args[3] = {&a, &ts, &gsplit};
    return mrt_pdl_launch((const void *)k, dim3(grid * gsplit), dim3(MRT_IL_THREADS), (size_t)bytes, args, s, pdl);
}

/* The wgmma tile for 32 heads (4 tokens a group) or 64 (2); `grid` tiles, each over gsplit
 * CTAs (1: one CTA a tile; 0: one CTA a token group). */
template <int STAGES = MRT_ILW_STAGES, int STOP = 0>
static cudaError_t mrt_ilw_launch_heads(mrt_index_logits_args a, int grid, cudaStream_t s, int pdl, int gsplit = 1) {
    const int tpg = 128 / a.heads;
    if (gsplit == 0) gsplit = (a.n + tpg - 1) / tpg;
    if ((long long)grid * gsplit > 0x7fffffffLL) return cudaErrorInvalidConfiguration;
    return tpg == 4 ? mrt_ilw_launch<4, STAGES, STOP>(a, grid, s, pdl, gsplit)
                    : mrt_ilw_launch<2, STAGES, STOP>(a, grid, s, pdl, gsplit);
}

static int il_run(int variant, const void *q8i, const float *wI, const void *idx_cache, const int *pos,
                  const int *block_table, float *logits, int M, int batch, int kv, int heads, int dim, int block_tokens,
                  int chunk, void *stream, int pdl, char *why, size_t n) {
    const char *F = "mrt_gpu_index_logits";
    if (variant < 0 || variant > 9)
        return mrt_gpu_fail(why, n, "%s: variant %d (0: f16 mma, 1: e4m3 mma, 2: f16 step-major, 3: f16 split chains, "
                            "4: e4m3 wgmma, 5: e4m3 wgmma 4 stages, 6-8: wgmma diagnostics, 9: variant 5, a CTA "
                            "a token group)", F, variant);
    if (variant >= 4 && heads != 32 && heads != 64)
        return mrt_gpu_fail(why, n, "%s: variant %d (wgmma) takes 32 or 64 heads, not %d", F, variant, heads);
    if (!q8i) return mrt_gpu_fail(why, n, "%s: q8i is NULL", F);
    if (!wI) return mrt_gpu_fail(why, n, "%s: wI is NULL", F);
    if (!idx_cache) return mrt_gpu_fail(why, n, "%s: idx_cache is NULL", F);
    if (!pos) return mrt_gpu_fail(why, n, "%s: pos is NULL", F);
    if (!block_table) return mrt_gpu_fail(why, n, "%s: block_table is NULL", F);
    if (!logits) return mrt_gpu_fail(why, n, "%s: logits is NULL", F);
    if (M < 1) return mrt_gpu_fail(why, n, "%s: M = %d must be >= 1", F, M);
    if (batch < 1 || M % batch) return mrt_gpu_fail(why, n, "%s: batch = %d must be >= 1 and divide M = %d", F, batch, M);
    if (kv < 1) return mrt_gpu_fail(why, n, "%s: kv = %d must be >= 1", F, kv);
    if (M / batch > kv)
        return mrt_gpu_fail(why, n, "%s: kv = %d is shorter than the %d new tokens of a request (M = %d, batch = %d)", F, kv,
                    M / batch, M, batch);
    if (dim != MRT_IL_DIM) return mrt_gpu_fail(why, n, "%s: dim = %d, only %d is supported", F, dim, MRT_IL_DIM);
    if (heads < 1 || heads > 64) return mrt_gpu_fail(why, n, "%s: heads = %d must be in [1, 64]", F, heads);
    if (block_tokens < 4 || block_tokens % 4)
        return mrt_gpu_fail(why, n, "%s: block_tokens = %d must be a positive multiple of 4 (16-byte aligned blocks)", F,
                    block_tokens);
    if (chunk < 1) return mrt_gpu_fail(why, n, "%s: chunk = %d must be >= 1", F, chunk);
    if ((uintptr_t)q8i % 16) return mrt_gpu_fail(why, n, "%s: q8i %p is not 16-byte aligned", F, q8i);
    if ((uintptr_t)idx_cache % 16) return mrt_gpu_fail(why, n, "%s: idx_cache %p is not 16-byte aligned", F, idx_cache);
    const long long nchunks = ((long long)kv + chunk - 1) / chunk, grid = nchunks * batch;
    if (grid > 0x7fffffffLL) return mrt_gpu_fail(why, n, "%s: %lld tiles (batch x kv / chunk) is too many", F, grid);
    mrt_index_logits_args a;
    a.q8 = (const uint8_t *)q8i, a.wI = wI, a.cache = (const uint8_t *)idx_cache, a.pos = pos;
    a.block_table = block_table, a.logits = logits;
    a.M = M, a.batch = batch, a.n = M / batch, a.kv = kv, a.heads = heads;
    mrt_il_set_blocks(a, block_tokens);
    a.chunk = chunk, a.nchunks = (int)nchunks;
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t e;
    if (variant == 0)
        e = heads <= 32 ? mrt_il_launch<MRT_IL_F16, 4>(a, (int)grid, s, pdl)
                        : mrt_il_launch<MRT_IL_F16, 8>(a, (int)grid, s, pdl);
    else if (variant == 1)
        e = heads <= 32 ? mrt_il_launch<MRT_IL_E4M3, 4>(a, (int)grid, s, pdl)
                        : mrt_il_launch<MRT_IL_E4M3, 8>(a, (int)grid, s, pdl);
    else if (variant == 2)
        e = heads <= 32 ? mrt_il_launch<MRT_IL_F16, 4, 1>(a, (int)grid, s, pdl)
                        : mrt_il_launch<MRT_IL_F16, 8, 1>(a, (int)grid, s, pdl);
    else if (variant == 3)
        e = heads <= 32 ? mrt_il_launch<MRT_IL_F16, 4, 2>(a, (int)grid, s, pdl)
                        : mrt_il_launch<MRT_IL_F16, 8, 2>(a, (int)grid, s, pdl);
    else
        e = variant == 4   ? mrt_ilw_launch_heads<>(a, (int)grid, s, pdl)
            : variant == 5 ? mrt_ilw_launch_heads<4>(a, (int)grid, s, pdl)
            : variant == 6 ? mrt_ilw_launch_heads<MRT_ILW_STAGES, 1>(a, (int)grid, s, pdl)
            : variant == 7 ? mrt_ilw_launch_heads<MRT_ILW_STAGES, 2>(a, (int)grid, s, pdl)
            : variant == 8 ? mrt_ilw_launch_heads<MRT_ILW_STAGES, 3>(a, (int)grid, s, pdl)
                           : mrt_ilw_launch_heads<4>(a, (int)grid, s, pdl, 0);
    if (e != cudaSuccess) return mrt_gpu_fail(why, n, "%s: %s", F, cudaGetErrorString(e));
    return launched(F, why, n);
}

extern "C" int mrt_gpu_index_logits_variant(int variant, const void *q8i, const float *wI, const void *idx_cache,
                                            const int *pos, const int *block_table, float *logits, int M, int batch,
                                            int kv, int heads, int dim, int block_tokens, int chunk, void *stream,
                                            char *why, size_t n) {
    return il_run(variant, q8i, wI, idx_cache, pos, block_table, logits, M, batch, kv, heads, dim, block_tokens, chunk,
                  stream, 0, why, n);
}

extern "C" int mrt_gpu_index_logits(const void *q8i, const float *wI, const void *idx_cache, const int *pos,
                                    const int *block_table, float *logits, int M, int batch, int kv, int heads,
                                    int dim, int block_tokens, int chunk, void *stream, int pdl, char *why, size_t n) {
#ifndef MRT_E1_MMA_SYNC /* the executors' E1: wgmma where it applies; -DMRT_E1_MMA_SYNC: the mma.sync tile */
    /* 4 key buffers here (variant 5), the megakernel's 2 (its shared memory): same logits.
     * While the tiles do not fill the SMs once, a CTA a token group (variant 9, same logits):
     * twice the CTAs at 8 tokens a request, half the epilogue each (H200, session 8, E1
     * alone: M=16 b=2 KV=8192, 128 tiles, 7.34 -> 6.20 us). With more tiles it loses (M=64
     * b=8 KV=65536, 512 tiles: 85.08 -> 111.38 us). */
    const long long tiles = chunk > 0 ? (long long)batch * ((kv + chunk - 1) / chunk) : 0;
    const int variant = heads == 32 || heads == 64 ? (tiles < mrt_gpu_num_sms() ? 9 : 5) : 0;
#else
    const int variant = 0;
#endif
    return il_run(variant, q8i, wI, idx_cache, pos, block_table, logits, M, batch, kv, heads, dim, block_tokens, chunk,
                  stream, pdl, why, n);
}

/* A one-CTA-a-row F1 kernel k (its traced twin when ts): a CTA of T threads a row, `bytes` of
 * dynamic shared memory (the attribute raised first when there are any). */
static cudaError_t mrt_topk_rows_launch(const void *k, int T, long long bytes, mrt_topk_args a, mrt_cta_stamp *ts,
                                        cudaStream_t s, int pdl) {
    if (bytes > 0) {
        cudaError_t e = mrt_gpu_raise_smem(k, (int)bytes);
        if (e != cudaSuccess) return e;
    }
    void *args[2] = {&a, &ts};
    return mrt_pdl_launch(k, dim3(a.M), dim3(T), (size_t)bytes, args, s, pdl);
}

template <int T, int STOP = 0> static cudaError_t mrt_topk_launch(mrt_topk_args a, cudaStream_t s, int pdl) {
    mrt_cta_stamp *ts = mrt_gpu_stamps_take(a.M, "topk");
    auto k = ts ? mrt_topk_kernel<T, true, STOP> : mrt_topk_kernel<T, false, STOP>;
    return mrt_topk_rows_launch((const void *)k, T, mrt_topk_smem_bytes(a.kv, a.cache_keys), a, ts, s, pdl);
}

template <int T, int PER, bool STAGE = false>
static cudaError_t mrt_topkr_launch(mrt_topk_args a, cudaStream_t s, int pdl) {
    mrt_cta_stamp *ts = mrt_gpu_stamps_take(a.M, "topk");
    auto k = ts ? mrt_topk_reg_kernel<T, PER, true, STAGE> : mrt_topk_reg_kernel<T, PER, false, STAGE>;
    return mrt_topk_rows_launch((const void *)k, T, 0, a, ts, s, pdl); /* static shared memory */
}

/* Variant 8 (STAGE: 9): 8 keys a thread up to kv = 8192, else 16. */
template <bool STAGE> static cudaError_t mrt_topkr_launch_kv(mrt_topk_args a, cudaStream_t s, int pdl) {
    return a.kv <= 8192 ? mrt_topkr_launch<1024, 8, STAGE>(a, s, pdl) : mrt_topkr_launch<1024, 16, STAGE>(a, s, pdl);
}

template <int T, bool P24 = false> static cudaError_t mrt_topkn_launch(mrt_topk_args a, cudaStream_t s, int pdl) {
    mrt_cta_stamp *ts = mrt_gpu_stamps_take(a.M, "topk");
    auto k = ts ? mrt_topk_runs_kernel<T, true, P24> : mrt_topk_runs_kernel<T, false, P24>;
    const long long bytes = P24 ? mrt_topk_runs24_smem_bytes(a.kv) : mrt_topk_runs_smem_bytes(a.kv);
    return mrt_topk_rows_launch((const void *)k, T, bytes, a, ts, s, pdl);
}

template <int T, int C> static cudaError_t mrt_topkc_launch(mrt_topk_args a, cudaStream_t s) {
    const int slice = mrt_topkc_slice(a.kv, C);
    a.cache_keys = slice <= MRT_TOPKC_CACHE_MAX ? slice : 0;
    const long long bytes = mrt_topkc_smem_bytes(a.cache_keys);
    mrt_cta_stamp *ts = mrt_gpu_stamps_take(a.M * C, "topk");
    auto k = ts ? mrt_topk_cluster_kernel<T, C, true> : mrt_topk_cluster_kernel<T, C, false>;
    cudaError_t e = mrt_gpu_raise_smem((const void *)k, (int)bytes);
    if (e != cudaSuccess) return e;
    k<<<a.M * C, T, (size_t)bytes, s>>>(a, ts);
    return cudaSuccess;
}

/* Variants 11 and 12: `split` slices a row (mrt_topk_slices); scratch and tickets allocated
 * and freed on the stream around the launch (tests only: no graph capture). */
static cudaError_t mrt_topks_launch(mrt_topk_args a, int split, cudaStream_t s) {
    int64_t slice;
    const int P = (int)mrt_topk_slices(a.kv, split, &slice);
    a.slice_cache = mrt_topk_slice_cache(slice, mrt_gpu_smem_optin());
    long long bytes = mrt_topk_slice_smem_bytes(a.slice_cache);
    if (mrt_topk_merge_smem_bytes(a.kv) > bytes) bytes = mrt_topk_merge_smem_bytes(a.kv);
    unsigned *tickets = nullptr;
    const size_t ent = (size_t)a.M * 2 * a.kv, cnt = (size_t)a.M * P * MRT_TOPK_GW;
    cudaError_t e = cudaFuncSetAttribute(mrt_topk_slices_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (!e) e = cudaMallocAsync((void **)&a.ent, (ent + cnt + (size_t)a.M) * 4, s);
    if (e) return e;
    a.cnt = a.ent + ent, tickets = a.cnt + cnt;
    e = cudaMemsetAsync(tickets, 0, (size_t)a.M * 4, s);
    if (!e) mrt_topk_slices_kernel<<<dim3(P, a.M), 384, (size_t)bytes, s>>>(a, P, (int)slice, tickets), e = cudaGetLastError();
    cudaError_t f = cudaFreeAsync(a.ent, s);
    return e ? e : f;
}

static int topk_run(int variant, const float *logits, int *out, int M, int kv, int k, void *stream, int pdl, char *why,
                    size_t n) {
    const char *F = "mrt_gpu_topk";
    if (variant < 0 || variant > 14)
        return mrt_gpu_fail(why, n, "%s: variant %d (0: 1 CTA of 1024 threads a row, 1: of 512, 2: cluster of 8 x 256, "
                            "3: cluster of 4 x 256, 4-7: variant 0 stopped after a phase, 8: keys in registers, 9: "
                            "8 with its output staged in shared memory, 10: 1 CTA of 384 threads, 11 / 12: the "
                            "megakernel's row in 3 / 16 slices, 13: runs of keys in shared memory, 384 threads, 14: "
                            "runs of 24-bit key prefixes in shared memory, 384 threads)", F,
                            variant);
    if (!logits) return mrt_gpu_fail(why, n, "%s: logits is NULL", F);
    if (!out) return mrt_gpu_fail(why, n, "%s: out is NULL", F);
    if (M < 1) return mrt_gpu_fail(why, n, "%s: M = %d must be >= 1", F, M);
    if (kv < 1) return mrt_gpu_fail(why, n, "%s: kv = %d must be >= 1", F, kv);
    if (k < 1) return mrt_gpu_fail(why, n, "%s: k = %d must be >= 1", F, k);
    mrt_topk_args a;
    memset(&a, 0, sizeof a);
    a.logits = logits, a.out = out, a.M = M, a.kv = kv, a.k = k;
    a.cache_keys = kv <= MRT_TOPK_CACHE_MAX ? kv : 0;
    if ((variant == 8 || variant == 9) && kv > MRT_TOPK_REG_MAX) /* variant 10 is the shared-memory row */
        return mrt_gpu_fail(why, n, "%s: variant %d holds at most %d keys a row in registers, kv = %d", F, variant,
                            MRT_TOPK_REG_MAX, kv);
    if (variant == 13 && kv > MRT_TOPK_CACHE_MAX)
        return mrt_gpu_fail(why, n, "%s: variant 13 holds at most %d keys a row in shared memory, kv = %d", F,
                            MRT_TOPK_CACHE_MAX, kv);
    if (variant == 14 && !mrt_topk_runs24_fits(kv, logits, mrt_gpu_smem_optin()))
        return mrt_gpu_fail(why, n, "%s: variant 14 needs 16-byte aligned logits and kv a multiple of 4 up to %d, "
                            "kv = %d", F, MRT_TOPK_R24_MAX, kv);
    if ((variant < 2 || (variant > 3 && variant < 8) || variant == 10) && mrt_topk_smem_bytes(kv, 0) > mrt_gpu_smem_optin())
        return mrt_gpu_fail(why, n, "%s: kv = %d: the row's bitmaps do not fit shared memory", F, kv);
    if (variant >= 11 && mrt_topk_merge_smem_bytes(kv) > mrt_gpu_smem_optin())
        return mrt_gpu_fail(why, n, "%s: kv = %d: the row's merge does not fit shared memory", F, kv);
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t e = variant == 0   ? mrt_topk_launch<1024>(a, s, pdl)
                    : variant == 1 ? mrt_topk_launch<512>(a, s, pdl)
                    : variant == 2 ? mrt_topkc_launch<256, 8>(a, s)
                    : variant == 3 ? mrt_topkc_launch<256, 4>(a, s)
                    : variant == 4 ? mrt_topk_launch<1024, 1>(a, s, pdl)
                    : variant == 5 ? mrt_topk_launch<1024, 2>(a, s, pdl)
                    : variant == 6 ? mrt_topk_launch<1024, 3>(a, s, pdl)
                    : variant == 7 ? mrt_topk_launch<1024, 4>(a, s, pdl)
                    : variant == 8 ? mrt_topkr_launch_kv<false>(a, s, pdl)
                    : variant == 9  ? mrt_topkr_launch_kv<true>(a, s, pdl)
                    : variant == 10 ? mrt_topk_launch<384>(a, s, pdl)
                    : variant == 13 ? mrt_topkn_launch<384>(a, s, pdl)
                    : variant == 14 ? mrt_topkn_launch<384, true>(a, s, pdl)
                                    : mrt_topks_launch(a, variant == 11 ? 3 : 16, s);
    if (e != cudaSuccess) return mrt_gpu_fail(why, n, "%s: %s", F, cudaGetErrorString(e));
    return launched(F, why, n);
}

extern "C" int mrt_gpu_topk_variant(int variant, const float *logits, int *out, int M, int kv, int k, void *stream,
                                    char *why, size_t n) {
    return topk_run(variant, logits, out, M, kv, k, stream, 0, why, n);
}

extern "C" int mrt_gpu_topk(const float *logits, int *out, int M, int kv, int k, void *stream, int pdl, char *why,
                            size_t n) {
    /* keys in registers, the output staged (variant 9). H200, M=16 kv=8192 k=2048 on E1 logits,
     * CUDA graph: variant 8 7.95 us against variant 0's 9.67 (session 8; in the step 8.25 against
     * 10.06); variant 9 6.73 against variant 8's 7.16 in one run (session 9 run 1, both equal to
     * the exact reference on every F1 case of test_index_ops, kv up to 16384). */
    return topk_run(kv <= MRT_TOPK_REG_MAX ? 9 : 0, logits, out, M, kv, k, stream, pdl, why, n);
}
