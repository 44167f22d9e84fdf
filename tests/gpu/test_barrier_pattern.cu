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
 * then thread 0 writes a flag, __syncthreads, everyone reads it. Every exchange is checked,
 * so the test fails if the pattern is wrong; if racecheck reports hazards here, with the
 * results right, they come from the tool's model of these barriers, not from megartp.
 * Prints "SKIP" without a GPU. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "gpu.h"
#include "testing.h"

#define THREADS 384
#define STEPS 12

template <bool SAME_IDS> __global__ void __launch_bounds__(THREADS, 1) pattern(unsigned *bad) {
    __shared__ unsigned words[32], buf[THREADS], flag;
    const int t = (int)threadIdx.x, warp = t / 32;
    unsigned errors = 0;
    for (int step = 0; step < STEPS; step++) {
        __syncthreads(); /* the previous instruction is done with words, buf and flag */
        if (t < 32) words[t] = (unsigned)(step * 32 + t) ^ blockIdx.x;
        __syncthreads();
        errors += words[t % 32] != ((unsigned)(step * 32 + t % 32) ^ blockIdx.x);
        const int kind = step % 3;
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
