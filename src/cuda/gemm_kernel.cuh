/* The standalone GEMM kernel: one CTA per tile (blockIdx -> mrt_gemm_tile), calling the
 * role functions of src/ops/gemm_*.cuh by warp. The megakernel calls the same roles with a
 * tile decoded from an instruction (src/cuda/mega_gemm.cuh).
 * Internal to src/cuda (gemm_fp8_standalone.cu, gemm_bf16_standalone.cu instantiate it). */
#ifndef MRT_GEMM_KERNEL_CUH
#define MRT_GEMM_KERNEL_CUH

#include "../ops/gemm_compute.cuh"

/* The kernel's producer wait; traced, the first wait to return stamps the CTA's "inputs
 * ready" (its activation loader's, before any consumer's). */
template <class Wait, bool TRACE> struct mrt_wait_stamped {
    Wait w;
    mrt_cta_stamp *ts;
    __device__ __forceinline__ void operator()(int lane) const {
        w(lane);
        if constexpr (TRACE)
            if (lane == 0) mrt_stamp_ready(ts);
    }
};

/* TRACE: the traced twin, the only instantiation with stamp code (records in a.ts); the host
 * launches it only for a traced step's launches (mrt_gpu_gemm_run). Never taken, the
 * NULL-guarded stamps still changed the untraced kernel (56-112 instructions more, its tile
 * decode off the uniform datapath, registers and scheduling moved in every role; measured
 * 0.3-1 us slower per GEMM). Without them it is the same SASS as a -DMRT_NO_STAMPS build. */
template <int KIND, int TN, class Wait, class Epi, bool TRACE = false>
__global__ void __launch_bounds__(MRT_GEMM_THREADS, 1)
    mrt_gemm_kernel(const __grid_constant__ CUtensorMap tw, const __grid_constant__ CUtensorMap tx,
                    const __grid_constant__ CUtensorMap tsx, const mrt_gemm_args a, const Epi epi) {
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    /* `nvcc -arch=sm_90a` also runs a plain compute_90 pass, which has no wgmma. That PTX is
     * never chosen on an sm_90 device (the sm_90a SASS is); if it ever runs, it stops. */
    (void)tw, (void)tx, (void)tsx, (void)a, (void)epi;
    __trap();
#else
    /* placement of the producer wait (gemm_core.cuh): LOADER for every executor's kernel;
     * ENTRY / PROLOGUE only in the PDL experiment's variants */
    constexpr int PLACE = mrt_wait_place<Wait>::value;
    if constexpr (TRACE) mrt_stamp_start(a.ts);
    if constexpr (PLACE == MRT_WAIT_PLACE_ENTRY) {
        asm volatile("griddepcontrol.wait;" ::: "memory");
        if constexpr (TRACE)
            if (threadIdx.x == 0) mrt_stamp_ready(a.ts);
    }
    extern __shared__ uint8_t mrt_smem_raw[];
    typedef mrt_gemm_layout<KIND, TN> L;
    /* controller: tile of this CTA, 1024-aligned shared memory (128B-swizzle atoms), barriers */
    const uint32_t raw = mrt_smem_u32(mrt_smem_raw);
    const uint32_t base = (raw + 1023u) & ~1023u;
    uint8_t *gbase = mrt_smem_raw + (base - raw);
    const L lay(a.stages, a.kb_per_split);
    const mrt_gemm_bars bars = {base + lay.bar_off};
    float *sxs = (float *)(gbase + lay.sx_off);
    float *sws = (float *)(gbase + lay.sw_off);
    float *stg = (float *)gbase; /* staging reuses the pipeline stages after the main loop */
    int *flag = (int *)(gbase + lay.flag_off);
    const mrt_gemm_progress pr = {(volatile int *)(gbase + lay.flag_off + 16)};
    mrt_gemm_tile t = mrt_gemm_tile_of<KIND>(a, (int)blockIdx.x);
    t.m0 = t.chunk * TN;
    const int warp = (int)threadIdx.x >> 5, lane = (int)threadIdx.x & 31;
    const mrt_wait_stamped<Wait, TRACE> wait = {Wait(), a.ts};
    const int cl = a.split > 1 && a.cluster; /* split-K through the cluster's shared memory */
    if (threadIdx.x == 0) {
        mrt_gemm_controller_init<KIND>(bars, a.stages, cl ? a.split : 0);
        for (int i = 0; i < 4; i++) pr.set(i, 0);
    }
    if constexpr (PLACE == MRT_WAIT_PLACE_PROLOGUE)
        if (threadIdx.x == 32) mrt_tma_prefetch_desc(&tw), mrt_tma_prefetch_desc(&tx);
    __syncthreads();
    /* Clustered: every thread arrives now and waits (below) before its first remote access or
     * its exit, so no peer touches this CTA's barriers before they exist. */
    if (cl) mrt_cluster_arrive();
    if constexpr (PLACE == MRT_WAIT_PLACE_PROLOGUE) wait(lane); /* every thread, after the prologue */

    if (warp == 0) {
        if (lane == 0) mrt_gemm_watchdog(t, a, bars, pr);
    } else if (warp == 1) {
        if constexpr (PLACE == MRT_WAIT_PLACE_LOADER)
            mrt_gemm_aload<KIND, TN>(t, a, &tx, &tsx, base, sxs, bars, pr, wait, lane);
        else
            mrt_gemm_load_unified<KIND, TN>(t, a, &tw, &tx, &tsx, base, sxs, sws, bars, pr, wait, lane);
    } else if (warp == 2) {
        if constexpr (PLACE == MRT_WAIT_PLACE_LOADER) mrt_gemm_wload<KIND, TN>(t, a, &tw, base, sws, bars, pr, lane);
    } else if (warp >= 4) {
        const int ctid = (int)threadIdx.x - 128;
        mrt_gemm_compute<KIND, TN>(t, a, base, sxs, sws, bars, pr, stg, ctid);
        if (cl) {
            mrt_cluster_wait();
            mrt_gemm_store_cluster<KIND, TN>(t, a, stg, bars, epi, wait, mrt_consumer_barrier(), ctid,
                                             MRT_GEMM_CONSUMERS);
        } else {
            mrt_gemm_store<KIND, TN>(t, a, stg, flag, epi, wait, mrt_consumer_barrier(), ctid, MRT_GEMM_CONSUMERS);
        }
        if ((ctid & 127) == 0) mrt_mbar_arrive(bars.done());
    }
    if (cl && warp < 4) mrt_cluster_wait(); /* consumers waited before their remote arrivals */
    /* warp 3 (storer) has nothing to do in the standalone kernel: the consumers store */
    if constexpr (TRACE) mrt_stamp_end(a.ts);
#endif
}

/* The traced twin of a planned kernel (mrt_gpu_gemm.kernel or .kernel_pdl of an fp8 / bf16
 * plan), for mrt_gpu_gemm_run's traced launches; NULL for a kernel without one (bench pdl's
 * variants). gemm_fp8_standalone.cu and gemm_bf16_standalone.cu define them. */
const void *mrt_gemm_fp8_traced(const void *kernel);
const void *mrt_gemm_bf16_traced(const void *kernel);

#endif
