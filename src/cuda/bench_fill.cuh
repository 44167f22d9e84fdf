/* Seeded fills of benchmark buffers, on the device (GBs of rotating weight copies would
 * take seconds to upload). Shared by the GEMM and PDL benchmarks; static, so each .cu that
 * includes it has its own instance of the kernel. */
#pragma once

#include <stdint.h>

static __device__ __forceinline__ uint64_t mrt_bench_hash(uint64_t x) {
    x ^= x >> 33, x *= 0xff51afd7ed558ccdull, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ull, x ^= x >> 33;
    return x;
}
/* kind 0: e4m3 codes (never NaN); 1: bf16 in [-1, 1); 2: fp32 scales in [1e-3, 1e-2) */
static __global__ void mrt_bench_fill(uint8_t *p, size_t n, uint64_t seed, int kind) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    if (kind == 0) {
        for (; i < n; i += stride) {
            uint8_t b = (uint8_t)mrt_bench_hash(seed + i);
            if ((b & 0x7F) == 0x7F) b ^= 1;
            p[i] = b;
        }
    } else if (kind == 1) {
        uint16_t *q = (uint16_t *)p;
        for (; i < n / 2; i += stride) {
            float f = (float)(mrt_bench_hash(seed + i) >> 40) * (2.0f / 16777216.0f) - 1.0f;
            q[i] = (uint16_t)(__float_as_uint(f) >> 16);
        }
    } else {
        float *q = (float *)p;
        for (; i < n / 4; i += stride) q[i] = 1e-3f + 9e-3f * (float)(mrt_bench_hash(seed + i) >> 40) / 16777216.0f;
    }
}
