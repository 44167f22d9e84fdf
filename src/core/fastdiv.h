/* Division of a non-negative int by a divisor fixed before a kernel runs, without a divide:
 * q = (j * mul) >> shift, with mul = ceil(2^shift / d) and shift = 31 + ceil(log2 d), exact for
 * 0 <= j < 2^31 and 1 <= d < 2^31 (the rounding-up multiplier: j mul / 2^shift exceeds j / d
 * by less than 2^-ceil(log2 d) <= 1 / d, which never carries into the next integer).
 *
 * Why: E1's tiles find a key's cache block as j / block_tokens for every key row they copy;
 * nvcc's 32-bit division by a run-time value is ~45 instructions, and the megakernel's E1 tile
 * held 900 of them in its 3275 (SASS of session 34's build), code a worker runs once a step
 * with its instructions cold (instruction fetch ~45% of the tile's stall samples, session 34
 * run 11). With this the tile is 45 KB instead of 52 (cubin), E1 9.4 us a task instead of
 * 10.1 at M=16 KV=8192 (H200, session 35 run 5; docs/MEGAKERNEL.md). */
#ifndef MRT_FASTDIV_H
#define MRT_FASTDIV_H

#include <stdint.h>

#ifdef __CUDACC__
#define MRT_FASTDIV_FN static __host__ __device__ __forceinline__
#else
#define MRT_FASTDIV_FN static inline
#endif

typedef struct mrt_fastdiv {
    uint32_t mul;
    int shift;
} mrt_fastdiv;

/* d in [1, 2^31); d = 0 (callers validate their divisors) gives quotients 0, not a trap */
MRT_FASTDIV_FN mrt_fastdiv mrt_fastdiv_make(uint32_t d) {
    if (d == 0) {
        mrt_fastdiv z = {0u, 31};
        return z;
    }
    int l = 0;
    while (l < 31 && (1u << l) < d) l++;
    mrt_fastdiv f;
    f.shift = 31 + l;
    f.mul = (uint32_t)(((1ull << f.shift) + d - 1) / d);
    return f;
}
/* j / d for j in [0, 2^31) */
MRT_FASTDIV_FN uint32_t mrt_fastdiv_q(uint32_t j, mrt_fastdiv f) {
    return (uint32_t)(((uint64_t)j * f.mul) >> f.shift);
}

#endif
