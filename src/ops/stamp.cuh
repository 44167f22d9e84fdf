/* Device side of the stream executors' trace stamps (record layout: src/core/stamp.h).
 * Every standalone kernel calls mrt_stamp_start first, mrt_stamp_ready after its producer
 * wait (where it has one) and mrt_stamp_end last, with the record array of its launch, and
 * only in its traced instantiation (a `bool TRACE` template parameter: the GEMM kernel,
 * gemm_kernel.cuh; A0, the FP8 GEMM epilogues and their PDL entry, prefix_ops.cu; E1 and
 * F1, index_ops.cu). The *_if<TRACE> forms below compile to nothing untraced. Launchers
 * pick <true> only when mrt_gpu_stamps_take gave records, so an untraced launch runs a
 * kernel with no stamp code (even never taken, NULL-guarded stamps changed the GEMM's SASS;
 * with them still in the other kernels the untraced step measured ~1 us slower than a
 * -DMRT_NO_STAMPS build). Building with -DMRT_NO_STAMPS empties the traced ones too: the
 * baseline that scripts/device-g.sh measures the untraced step against. */
#ifndef MRT_STAMP_CUH
#define MRT_STAMP_CUH

#include "stamp.h"

static __device__ __forceinline__ unsigned long long mrt_globaltimer(void) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

static __device__ __forceinline__ mrt_cta_stamp *mrt_stamp_of(mrt_cta_stamp *ts) {
    return ts + blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/* thread 0, first thing in the kernel */
static __device__ __forceinline__ void mrt_stamp_start(mrt_cta_stamp *ts) {
#ifndef MRT_NO_STAMPS
    if (ts && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        mrt_cta_stamp *r = mrt_stamp_of(ts);
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        r->start = mrt_globaltimer();
        r->sm = sm;
    }
#else
    (void)ts;
#endif
}

/* a thread whose producer wait just returned; the first one counts (a GEMM's activation
 * loader waits before its consumers' store does) */
static __device__ __forceinline__ void mrt_stamp_ready(mrt_cta_stamp *ts) {
#ifndef MRT_NO_STAMPS
    if (ts) atomicCAS(&mrt_stamp_of(ts)->ready, 0ull, mrt_globaltimer());
#else
    (void)ts;
#endif
}

/* every thread as it leaves the kernel; lane 0 of each warp stamps (the latest one counts) */
static __device__ __forceinline__ void mrt_stamp_end(mrt_cta_stamp *ts) {
#ifndef MRT_NO_STAMPS
    if (ts && (threadIdx.x & 31) == 0) atomicMax(&mrt_stamp_of(ts)->end, mrt_globaltimer());
#else
    (void)ts;
#endif
}

/* the stamps of a kernel's TRACE instantiation; nothing in its untraced one */
template <bool TRACE> static __device__ __forceinline__ void mrt_stamp_start_if(mrt_cta_stamp *ts) {
    if constexpr (TRACE) mrt_stamp_start(ts);
}
template <bool TRACE> static __device__ __forceinline__ void mrt_stamp_ready_if(mrt_cta_stamp *ts) {
    if constexpr (TRACE) mrt_stamp_ready(ts);
}
template <bool TRACE> static __device__ __forceinline__ void mrt_stamp_end_if(mrt_cta_stamp *ts) {
    if constexpr (TRACE) mrt_stamp_end(ts);
}

#endif
