/* The megakernel's CTA barrier pattern in a few lines, checked for its results and meant to
 * be run under `compute-sanitizer --tool racecheck` (scripts/device-next.sh does).
 *
 * racecheck reports hazards in the megakernel between shared-memory accesses that a
 * __syncthreads orders (docs/MEGAKERNEL.md). This kernel has the same pattern and nothing
 * else: 384 threads loop over "instructions"; each starts with __syncthreads, 32 threads
 * write the instruction words, __syncthreads, everyone reads them; then either
 *   GEMM-like:  warps 4-11 exchange values through shared memory at named barrier 1 (256),
 *   row-like:   warps 0-7 do the same at barrier ID (1 in `same_ids`, 5 otherwise),
 *   groups:     three groups of 128 threads at barriers 2, 3, 4;
 *   mbarriers:  a GEMM tile's handshake (session 53: racecheck's reports in the megakernel
 *               are reads by lane 0 of consumer warps): warp 1's lane 0 fills buf and arrives
 *               on `full`, warps 4-11 wait on it and read buf, then each one's lane 0 arrives
 *               on `empty`, which warp 1's lane 0 waits on; after the CTA barrier thread 0
 *               invalidates both (the next such step initializes them again);
 * then thread 0 writes a flag, __syncthreads, everyone reads it. Every exchange is checked,
 * so the test fails if the pattern is wrong; if racecheck reports hazards here, with the
 * results right, they come from the tool's model of these barriers, not from megartp.
 * Prints "SKIP" without a GPU. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "gemm_core.cuh" /* the megakernel's mbarrier helpers */
#include "gpu.h"
#include "testing.h"

#define THREADS 384
#define STEPS 16
#define SPINS 100000000LL /* a bounded mbarrier wait, in clock cycles: a miss counts as errors */

static __device__ unsigned wait_phase0(uint32_t bar) {
    const long long t0 = clock64();
    while (!mrt_mbar_try(bar, 0))
        if (clock64() - t0 > SPINS) return 1000u;
    return 0u;
}

template <bool SAME_IDS> __global__ void __launch_bounds__(THREADS, 1) pattern(unsigned *bad) {
    __shared__ unsigned words[32], buf[THREADS], flag;
    __shared__ __align__(8) uint64_t mbar[2]; /* full, empty */
    const int t = (int)threadIdx.x, warp = t / 32, lane = t % 32;
    const uint32_t full = mrt_smem_u32(&mbar[0]), empty = mrt_smem_u32(&mbar[1]);
    unsigned errors = 0;
    for (int step = 0; step < STEPS; step++) {
        __syncthreads(); /* the previous instruction is done with words, buf and flag */
        if (t < 32) words[t] = (unsigned)(step * 32 + t) ^ blockIdx.x;
        __syncthreads();
        errors += words[t % 32] != ((unsigned)(step * 32 + t % 32) ^ blockIdx.x);
        const int kind = step % 4;
        if (kind == 0 && warp >= 4) { /* GEMM consumers: warps 4-11 */
            const int i = t - 128;
            buf[i] = (unsigned)(step * 1000 + i);
            asm volatile("bar.sync 1, 256;" ::: "memory");
            errors += buf[255 - i] != (unsigned)(step * 1000 + 255 - i);
        } else if (kind == 1 && warp < 8) { /* E1 / F1 rows: warps 0-7 */
            buf[t] = (unsigned)(step * 1000 + t);
            if (SAME_IDS) asm volatile("bar.sync 1, 256;" ::: "memory");
            else asm volatile("bar.sync 5, 256;" ::: "memory");
            errors += buf[255 - t] != (unsigned)(step * 1000 + 255 - t);
        } else if (kind == 2) { /* finalization groups of 128 threads */
            const int g = t / 128, i = t % 128;
            buf[t] = (unsigned)(step * 1000 + t);
            asm volatile("bar.sync %0, 128;" ::"r"(2 + g) : "memory");
            errors += buf[g * 128 + 127 - i] != (unsigned)(step * 1000 + g * 128 + 127 - i);
        } else if (kind == 3) { /* a GEMM tile's mbarrier handshake */
            if (t == 0) mrt_mbar_init(full, 1), mrt_mbar_init(empty, 8);
            __syncthreads();
            if (warp == 1 && lane == 0) {
                for (int i = 0; i < 256; i++) buf[i] = (unsigned)(step * 1000 + i);
                mrt_mbar_arrive(full);
                errors += wait_phase0(empty);
            } else if (warp >= 4) {
                errors += wait_phase0(full);
                __syncwarp();
                errors += buf[t - 128] != (unsigned)(step * 1000 + t - 128);
                __syncwarp();
                if (lane == 0) mrt_mbar_arrive(empty);
            }
            __syncthreads();
            if (t == 0) mrt_mbar_inval(full), mrt_mbar_inval(empty);
        }
        __syncthreads(); /* every writer of this instruction is done */
        if (t == 0) flag = (unsigned)step;
        __syncthreads();
        errors += flag != (unsigned)step;
    }
    if (errors) atomicAdd(bad, errors);
}

int main(void) {
    char why[256];
    if (!mrt_gpu_available(why, sizeof why)) {
        printf("SKIP: %s\n0 passed, 0 failed\n", why);
        return 0;
    }
    unsigned *bad = NULL, h = 0;
    CHECK(cudaMalloc(&bad, sizeof *bad) == cudaSuccess, "cudaMalloc");
    for (int same = 0; same < 2 && bad; same++) {
        cudaMemset(bad, 0, sizeof *bad);
        if (same) pattern<true><<<4, THREADS>>>(bad);
        else pattern<false><<<4, THREADS>>>(bad);
        cudaError_t e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost);
        CHECK(e == cudaSuccess && h == 0, "barrier pattern (%s ids): %s, %u wrong exchanges",
              same ? "same" : "distinct", cudaGetErrorString(e), h);
        printf("barrier pattern, %s named-barrier ids for the two 256-thread roles: %u wrong exchanges\n",
               same ? "the same" : "distinct", h);
    }
    cudaFree(bad);
    TEST_MAIN_END();
}
