/* BF16 GEMMs, the compute roles (the other roles are in gemm_core.cuh).
 *
 * MRT_GEMM_BF16 (head gate C0): C[m, n] = sum_k x[m, k] * W[n, k], W [N, K] row-major
 *   (K-major), x [M, K] bf16 with a row stride; fp32 accumulate in the wgmma registers
 *   across the whole K range of the tile (no block scales, so no promotion).
 * MRT_GEMM_BF16_MN (W_UK absorption D2): per batch b (head),
 *   C[m, b, n] = sum_k x[m, b*act_batch_col + k] * W[b][k][n], W [batches][K][N] row-major,
 *   i.e. MN-major for swap-AB's A operand: bf16 wgmma reads it transposed (imm-trans-a = 1),
 *   which 8-bit wgmma cannot. Each consumer warpgroup owns two 64-column boxes (BLOCK_N 256).
 * Both: tokens are wgmma's N (TN), K-major activations. */
#ifndef MRT_GEMM_BF16_CUH
#define MRT_GEMM_BF16_CUH

#include "gemm_core.cuh"

template <int TN>
static __device__ __forceinline__ void mrt_gemm_bf16_compute(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                             uint32_t smem, const mrt_gemm_bars &b, const mrt_gemm_progress &pr, float *stg,
                                                             int ctid) {
    typedef mrt_gemm_layout<MRT_GEMM_BF16, TN> L;
    const int wg = ctid >> 7, lane = ctid & 31;
    float acc[TN / 2];
#pragma unroll
    for (int r = 0; r < TN / 2; r++) acc[r] = 0.0f;
    /* read once: in the megakernel `a` is shared memory (the operand row), which every
     * mbarrier asm's memory clobber would have the compiler re-read (and spill) each K block */
    unsigned *const diag = a.diag;
    const int nkb = t.nkb;
    mrt_ring r = {0, a.stages, 0u};
    for (int i = 0; i < nkb; i++, r.next()) {
        const int s = r.s;
        const uint32_t ph = r.ph;
        mrt_mbar_wait_full(b.full(s), ph, diag);
        const uint32_t wa = smem + s * L::STAGE_BYTES + wg * 64 * MRT_GEMM_KB_BYTES;
        const uint32_t xa = smem + s * L::STAGE_BYTES + mrt_gemm_kind<MRT_GEMM_BF16>::W_BYTES;
        mrt_wgmma_fence();
        const mrt_sdesc_k_tn<TN> dw(wa), dx(xa);
#pragma unroll
        for (int kk = 0; kk < 4; kk++) mrt_wgmma<TN>::template bf16<0>(acc, dw(32 * kk), dx(32 * kk), (i | kk) != 0);
        mrt_wgmma_commit();
        mrt_wgmma_wait<0>();
        mrt_reg_fence(acc);
        __syncwarp();
        if (lane == 0) mrt_mbar_arrive(b.empty(s));
        if ((ctid & 127) == 0) pr.set(2 + wg, i + 1);
    }
    mrt_consumer_sync();
    mrt_gemm_stage_acc<MRT_GEMM_BF16, TN>(stg, acc, wg * 64, ctid);
    mrt_consumer_sync();
}

template <int TN>
static __device__ __forceinline__ void mrt_gemm_bf16_mn_compute(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                                uint32_t smem, const mrt_gemm_bars &b, const mrt_gemm_progress &pr, float *stg,
                                                                int ctid) {
    typedef mrt_gemm_layout<MRT_GEMM_BF16_MN, TN> L;
    const int wg = ctid >> 7, lane = ctid & 31;
    float acc0[TN / 2], acc1[TN / 2];
#pragma unroll
    for (int r = 0; r < TN / 2; r++) acc0[r] = 0.0f, acc1[r] = 0.0f;
    unsigned *const diag = a.diag; /* read once, as in mrt_gemm_bf16_compute */
    const int nkb = t.nkb;
    mrt_ring r = {0, a.stages, 0u};
    for (int i = 0; i < nkb; i++, r.next()) {
        const int s = r.s;
        const uint32_t ph = r.ph;
        mrt_mbar_wait_full(b.full(s), ph, diag);
        /* boxes 2*wg and 2*wg+1: [64 K rows][64 N] each, 8 KiB; a k16 step is 16 rows */
        const uint32_t wa = smem + s * L::STAGE_BYTES + (2 * wg) * 8192;
        const uint32_t xa = smem + s * L::STAGE_BYTES + mrt_gemm_kind<MRT_GEMM_BF16_MN>::W_BYTES;
        mrt_wgmma_fence();
        const mrt_sdesc_mn_at<TN> dw(wa);
        const mrt_sdesc_k_tn<TN> dx(xa);
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
            const uint64_t bx = dx(32 * kk);
            mrt_wgmma<TN>::template bf16<1>(acc0, dw(2048 * kk), bx, (i | kk) != 0);
            mrt_wgmma<TN>::template bf16<1>(acc1, dw(8192 + 2048 * kk), bx, (i | kk) != 0);
        }
        mrt_wgmma_commit();
        mrt_wgmma_wait<0>();
        mrt_reg_fence(acc0);
        mrt_reg_fence(acc1);
        __syncwarp();
        if (lane == 0) mrt_mbar_arrive(b.empty(s));
        if ((ctid & 127) == 0) pr.set(2 + wg, i + 1);
    }
    mrt_consumer_sync();
    mrt_gemm_stage_acc<MRT_GEMM_BF16_MN, TN>(stg, acc0, (2 * wg) * 64, ctid);
    mrt_gemm_stage_acc<MRT_GEMM_BF16_MN, TN>(stg, acc1, (2 * wg + 1) * 64, ctid);
    mrt_consumer_sync();
}

#endif
