/* The device's hardware conversions (src/core/numerics.h, MRT_HW_CVT) against the reference
 * functions every executor's numerics are defined by: fp32 -> e4m3 (satfinite, round to
 * nearest even) and fp32 -> bf16, for all 2^32 fp32 bit patterns, NaNs included (those take
 * the reference path); and the indexer's quantization x * mrt_pow2_inv(s) against x / s
 * (__fdiv_rn) bit for bit, s = 2^e for every e mrt_pow2_scale gives (-22 .. 120, the input's
 * bits modulo 143). A mismatch names the first input that differs. Also checks that each
 * block covered its whole range (a kernel that ran on part of the inputs fails).
 * Prints "SKIP" without a GPU. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "gpu.h"
#include "numerics.h"
#include "testing.h"

#define PER_THREAD 256 /* inputs a thread converts: 2^32 / (256 threads x 65536 blocks x 256) */

struct result {
    unsigned long long covered;                 /* inputs converted */
    unsigned e4m3_bad, bf16_bad, inv_bad;       /* mismatches */
    unsigned e4m3_first, bf16_first, inv_first; /* the smallest input bits that differ (0xFFFFFFFF: none) */
};

__global__ void compare_all(result *r) {
    const uint32_t base = ((uint32_t)blockIdx.x * blockDim.x + threadIdx.x) * PER_THREAD;
    unsigned bad8 = 0, bad16 = 0, badi = 0, first8 = 0xFFFFFFFFu, first16 = 0xFFFFFFFFu, firsti = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < PER_THREAD; i++) {
        const uint32_t u = base + i;
        const float x = mrt_bits_f32(u);
        if (mrt_f32_to_e4m3(x) != mrt_f32_to_e4m3_ref(x)) bad8++, first8 = min(first8, u);
        if (mrt_f32_to_bf16(x) != mrt_f32_to_bf16_ref(x)) bad16++, first16 = min(first16, u);
        const float s = ldexpf(1.0f, -22 + (int)(u % 143u)), p = __fmul_rn(x, mrt_pow2_inv(s)), q = __fdiv_rn(x, s);
        if (isnan(p) != isnan(q) || (!isnan(q) && mrt_f32_bits(p) != mrt_f32_bits(q))) badi++, firsti = min(firsti, u);
    }
    if (bad8) atomicAdd(&r->e4m3_bad, bad8), atomicMin(&r->e4m3_first, first8);
    if (bad16) atomicAdd(&r->bf16_bad, bad16), atomicMin(&r->bf16_first, first16);
    if (badi) atomicAdd(&r->inv_bad, badi), atomicMin(&r->inv_first, firsti);
    atomicAdd(&r->covered, (unsigned long long)PER_THREAD);
}

int main(void) {
    char why[256];
    if (!mrt_gpu_available(why, sizeof why)) {
        printf("SKIP: %s\n0 passed, 0 failed\n", why);
        return 0;
    }
    result *d = NULL, h = {0, 0xDEADu, 0xDEADu, 0xDEADu, 0, 0, 0}; /* poisoned: the kernel must overwrite */
    if (!CHECK(cudaMalloc(&d, sizeof *d) == cudaSuccess, "cudaMalloc")) TEST_MAIN_END();
    result init = {0, 0, 0, 0, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
    cudaMemcpy(d, &init, sizeof init, cudaMemcpyHostToDevice);
    compare_all<<<65536, 256>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    CHECK(e == cudaSuccess, "compare kernel: %s", cudaGetErrorString(e));
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    CHECK(h.covered == (1ull << 32), "inputs converted: %llu of 2^32", h.covered);
    CHECK(h.e4m3_bad == 0, "fp32 -> e4m3: %u inputs differ from the reference, the first 0x%08x", h.e4m3_bad,
          h.e4m3_first);
    CHECK(h.bf16_bad == 0, "fp32 -> bf16: %u inputs differ from the reference, the first 0x%08x", h.bf16_bad,
          h.bf16_first);
    CHECK(h.inv_bad == 0, "x * mrt_pow2_inv(2^e) != x / 2^e: %u inputs, the first 0x%08x", h.inv_bad, h.inv_first);
    cudaFree(d);
    TEST_MAIN_END();
}
