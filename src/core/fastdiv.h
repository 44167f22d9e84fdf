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
 * 10.1 at M=16 KV=8192 (H200, session 35 run 5; docs/MEGAKERNEL.md). The finalizations' cache
 * slots and heads use it too (filled by mrt_epi_fill; with mrt_smalldiv below for a job's row:
 * the megakernel's PTX 448 -> 98 divisions, M=16 KV=8192 61.1 -> 60.1 us, session 36 run 2). */
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

/* A paged cache's geometry in kernel arguments, one rule for every launcher that fills it
 * (E1's mrt_il_set_blocks, the cache writers' mrt_epi_fill): the blocks of a request's table
 * row, ceil(kv / block_tokens), and a position's block as a multiply-shift. kv >= 1 and
 * block_tokens >= 1 (the callers validate them). */
MRT_FASTDIV_FN void mrt_cache_blocks(int kv, int block_tokens, int *bpr, mrt_fastdiv *block_of_pos) {
    *bpr = (kv + block_tokens - 1) / block_tokens;
    *block_of_pos = mrt_fastdiv_make((uint32_t)block_tokens);
}

/* Division of small non-negative ints by a divisor known only on the device (a finalization
 * unit's pieces: mega_gemm.cuh), where the host cannot fill a multiply-shift: q = trunc(j * r)
 * with the divisor's float reciprocal r = fl(1 / d) taken once, then one correction up. Exact for
 * 0 <= j < 2^23 and 1 <= d < 2^23: j is exact in a float and fl(j * r) is j / d within a
 * relative 2^-23 (two roundings of 2^-24). Above, that is j / d + less than j 2^-23 / d < 1 / d,
 * and j / d is at most 1 / d below the next integer, so the truncation never passes the
 * quotient; below, less than 1 under it. (test_fastdiv: without the correction 18400 of its
 * quotients are wrong.) ~6 instructions against ~45 for nvcc's division by a run-time value. */
typedef struct mrt_smalldiv {
    int d;
    float r;
} mrt_smalldiv;

/* d in [1, 2^23) (callers' divisors are counts of pieces); d < 1 gives quotients 0
 * (a divisor of 2^30), not a trap */
MRT_FASTDIV_FN mrt_smalldiv mrt_smalldiv_make(int d) {
    mrt_smalldiv s;
    s.d = d < 1 ? 1 << 30 : d;
    s.r = 1.0f / (float)s.d;
    return s;
}
/* j / d for j in [0, 2^23) */
MRT_FASTDIV_FN int mrt_smalldiv_q(int j, mrt_smalldiv s) {
    const int q = (int)((float)j * s.r);
    return (q + 1) * s.d <= j ? q + 1 : q;
}

#endif
