/* The compute role of a GEMM tile by kind: the two consumer warpgroups (ctid 0..255) leave
 * the tile's fp32 result in the staging area. One dispatch for the standalone kernel
 * (src/cuda/gemm_kernel.cuh) and the megakernel (src/cuda/mega_gemm.cuh). */
#ifndef MRT_GEMM_COMPUTE_CUH
#define MRT_GEMM_COMPUTE_CUH

#include "gemm_bf16.cuh"
#include "gemm_fp8.cuh"

template <int KIND, int TN>
static __device__ __forceinline__ void mrt_gemm_compute(const mrt_gemm_tile &t, const mrt_gemm_args &a, uint32_t base,
                                                        const float *sxs, const float *sws, const mrt_gemm_bars &bars,
                                                        const mrt_gemm_progress &pr, float *stg, int ctid) {
    if constexpr (KIND == MRT_GEMM_FP8)
        mrt_gemm_fp8_compute<TN>(t, a, base, sxs, sws, bars, pr, stg, ctid);
    else if constexpr (KIND == MRT_GEMM_FP8_TALL) {
        static_assert(TN <= MRT_GEMM_TALL_TN, "tall fp8 tiles: at TN <= MRT_GEMM_TALL_TN only (registers)");
        mrt_gemm_fp8_compute<TN, 2>(t, a, base, sxs, sws, bars, pr, stg, ctid);
    }
    else if constexpr (KIND == MRT_GEMM_BF16)
        mrt_gemm_bf16_compute<TN>(t, a, base, bars, pr, stg, ctid);
    else
        mrt_gemm_bf16_mn_compute<TN>(t, a, base, bars, pr, stg, ctid);
}

#endif
